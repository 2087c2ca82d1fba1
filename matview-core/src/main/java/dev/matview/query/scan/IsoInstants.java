package dev.matview.query.scan;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;

/**
 * Formats instants exactly as {@link DateTimeFormatter#ISO_INSTANT} does, without its general
 * machinery: whole seconds, then a fraction of 3, 6 or 9 digits when there is one, then {@code Z}.
 */
final class IsoInstants {

  /** The first second of the year 10000, from which ISO needs a sign and more digits. */
  private static final long YEAR_10000 = 253_402_300_800L;

  private IsoInstants() {}

  /** The instant as {@code ISO_INSTANT} writes it. */
  static String format(Instant instant) {
    long seconds = instant.getEpochSecond();
    if (seconds < 0 || seconds >= YEAR_10000) {
      return instant.toString();
    }
    LocalDate date = LocalDate.ofEpochDay(seconds / 86_400);
    int secondOfDay = (int) (seconds % 86_400);
    int nanos = instant.getNano();
    int fractionDigits =
        (nanos == 0) ? 0 : (nanos % 1_000_000 == 0) ? 3 : (nanos % 1_000 == 0) ? 6 : 9;
    char[] text = new char[20 + (fractionDigits > 0 ? fractionDigits + 1 : 0)];
    digits(text, 0, date.getYear(), 4);
    text[4] = '-';
    digits(text, 5, date.getMonthValue(), 2);
    text[7] = '-';
    digits(text, 8, date.getDayOfMonth(), 2);
    text[10] = 'T';
    digits(text, 11, secondOfDay / 3_600, 2);
    text[13] = ':';
    digits(text, 14, secondOfDay / 60 % 60, 2);
    text[16] = ':';
    digits(text, 17, secondOfDay % 60, 2);
    int end = 19;
    if (fractionDigits > 0) {
      text[end++] = '.';
      digits(text, end, nanos / pow10(9 - fractionDigits), fractionDigits);
      end += fractionDigits;
    }
    text[end] = 'Z';
    return new String(text);
  }

  private static void digits(char[] text, int at, int value, int count) {
    int rest = value;
    for (int index = at + count - 1; index >= at; index--) {
      text[index] = (char) ('0' + rest % 10);
      rest /= 10;
    }
  }

  private static int pow10(int exponent) {
    int power = 1;
    for (int i = 0; i < exponent; i++) {
      power *= 10;
    }
    return power;
  }
}
