package dev.matview.query.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.query.answer.InvalidQueryException;
import org.junit.jupiter.api.Test;

/**
 * The {@code form} of a slice request names one of the three forms, or is left out for JSON; any
 * other value is refused naming the parameter, without echoing what was sent.
 */
class SliceFormTests {

  @Test
  void readsEachFormByItsParameter() {
    assertThat(SliceForm.of("notes", null)).isEqualTo(SliceForm.JSON);
    assertThat(SliceForm.of("notes", "lines")).isEqualTo(SliceForm.LINES);
    assertThat(SliceForm.of("notes", "stream")).isEqualTo(SliceForm.STREAM);
    for (SliceForm form : SliceForm.values()) {
      assertThat(SliceForm.of("notes", form.parameter())).isEqualTo(form);
    }
  }

  @Test
  void refusesAnyOtherFormNamingTheParameterWithoutEchoingIt() {
    String sent = "x".repeat(3_000);
    for (String form : new String[] {"LINES", "json", "", sent}) {
      assertThatExceptionOfType(InvalidQueryException.class)
          .isThrownBy(() -> SliceForm.of("notes", form))
          .satisfies(
              ex -> {
                assertThat(ex.getParameter()).isEqualTo("form");
                assertThat(ex.getMessage()).contains("'lines', 'stream'").doesNotContain(sent);
              });
    }
  }
}
