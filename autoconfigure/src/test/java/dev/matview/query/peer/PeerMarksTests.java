package dev.matview.query.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

/**
 * An instance marked down is skipped for the down time, on a clock the test moves; once that has
 * passed, further while the directory does not name it, until it shows up again.
 */
class PeerMarksTests {

  private static final HostInfo DEAD = new HostInfo("host-b", 8080);

  private static final HostInfo OTHER = new HostInfo("host-c", 8080);

  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  private final Set<HostInfo> named = new HashSet<>(Set.of(DEAD, OTHER));

  private final PeerMarks marks =
      new PeerMarks(Duration.ofSeconds(2), this.named::contains, this.now::get);

  @Test
  void skipsAnInstanceMarkedDownForTheDownTimeOnly() {
    assertThat(this.marks.isDown(DEAD)).isFalse();
    this.marks.down(DEAD);
    assertThat(this.marks.isDown(DEAD)).isTrue();
    assertThat(this.marks.isDown(OTHER)).isFalse();
    advance(Duration.ofMillis(1999));
    assertThat(this.marks.isDown(DEAD)).isTrue();
    advance(Duration.ofMillis(1));
    assertThat(this.marks.isDown(DEAD)).isFalse();
  }

  @Test
  void keepsSkippingAnInstanceTheDirectoryNoLongerNamesUntilItShowsUpAgain() {
    this.marks.down(DEAD);
    this.named.remove(DEAD);
    advance(Duration.ofSeconds(30));
    assertThat(this.marks.isDown(DEAD)).isTrue();
    this.named.add(DEAD);
    assertThat(this.marks.isDown(DEAD)).isFalse();
    this.named.remove(DEAD);
    assertThat(this.marks.isDown(DEAD)).as("the mark ended when it showed up again").isFalse();
  }

  @Test
  void endsAMarkWhenTheInstanceAnswers() {
    this.marks.down(DEAD);
    this.marks.up(DEAD);
    assertThat(this.marks.isDown(DEAD)).isFalse();
  }

  @Test
  void marksAgainFromTheLatestFailure() {
    this.marks.down(DEAD);
    advance(Duration.ofSeconds(1));
    this.marks.down(DEAD);
    advance(Duration.ofMillis(1500));
    assertThat(this.marks.isDown(DEAD)).isTrue();
  }

  @Test
  void neverMarksWithADownTimeOfZero() {
    PeerMarks never = new PeerMarks(Duration.ZERO, (host) -> false, this.now::get);
    never.down(DEAD);
    assertThat(never.isDown(DEAD)).isFalse();
  }

  @Test
  void worksAcrossTheWrapOfTheNanosecondClock() {
    this.now.set(Long.MAX_VALUE - Duration.ofSeconds(1).toNanos());
    this.marks.down(DEAD);
    advance(Duration.ofMillis(1500));
    assertThat(this.marks.isDown(DEAD)).isTrue();
    advance(Duration.ofMillis(500));
    assertThat(this.marks.isDown(DEAD)).isFalse();
  }

  private void advance(Duration by) {
    this.now.addAndGet(by.toNanos());
  }
}
