package dev.matview.query.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The instances an instance remembers across a restart, in a file of its state dir. */
class InstanceMemoryTests {

  @TempDir Path stateDir;

  @Test
  void recallsAfterARestartTheInstancesItRememberedInOrder() {
    Path file = this.stateDir.resolve("app").resolve(InstanceMemory.FILE_NAME);
    InstanceMemory before = InstanceMemory.inFile(() -> file);

    before.remember(
        Set.of(new HostInfo("host-b", 8080), new HostInfo("host-a", 9090), host("::1", 80)));

    assertThat(InstanceMemory.inFile(() -> file).recalled())
        .containsExactly(host("::1", 80), host("host-a", 9090), host("host-b", 8080));
  }

  @Test
  void recallsNothingWithoutAFileAndSkipsLinesItCannotRead() throws IOException {
    Path file = this.stateDir.resolve(InstanceMemory.FILE_NAME);
    assertThat(InstanceMemory.inFile(() -> file).recalled()).isEmpty();

    Files.writeString(file, "host-a:8080\nnot an address\nhost-b:0\nhost-c:x\n:80\nhost-d:65535\n");

    assertThat(InstanceMemory.inFile(() -> file).recalled())
        .containsExactly(host("host-a", 8080), host("host-d", 65535));
  }

  @Test
  void keepsWhatItRemembersInMemoryWhenTheFileCannotBeWritten() throws IOException {
    Path blocker = Files.writeString(this.stateDir.resolve("a-file"), "");
    InstanceMemory memory = InstanceMemory.inFile(() -> blocker.resolve(InstanceMemory.FILE_NAME));

    memory.remember(Set.of(host("host-a", 8080)));

    assertThat(memory.recalled()).containsExactly(host("host-a", 8080));
  }

  @Test
  void aMemoryOfNothingKeepsNothing() {
    InstanceMemory none = InstanceMemory.none();

    none.remember(Set.of(host("host-a", 8080)));

    assertThat(none.recalled()).isEmpty();
  }

  private static HostInfo host(String host, int port) {
    return new HostInfo(host, port);
  }
}
