package dev.matview.peer.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The peers' client over TLS, against a server whose certificate keytool makes for the test. */
class PeerAsyncHttpClientTlsTests {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private static final char[] PASSWORD = "changeit".toCharArray();

  private static final String ANSWER = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ntls";

  @TempDir Path directory;

  @Test
  void exchangesOverTlsWithAnInstanceWhoseCertificateNamesItsAddress() throws Exception {
    KeyStore keys = keyStore("ip:127.0.0.1");
    SSLContext context = context(keys);
    try (ScriptedServer server = tlsServer(context);
        PeerAsyncHttpClient client = new PeerAsyncHttpClient(context, TIMEOUT, 4, 8)) {
      assertThat(new String(get(client, server).body(), StandardCharsets.UTF_8)).isEqualTo("tls");
      for (int i = 0; i < 9; i++) {
        assertThat(get(client, server).status()).isEqualTo(200);
      }
      assertThat(server.connections()).as("connections for 10 requests").hasValueLessThan(5);
    }
  }

  @Test
  void keepsAConnectionOnWhichItPresentedItsOwnCertificate() throws Exception {
    KeyStore keys = keyStore("ip:127.0.0.1");
    SSLContext context = context(keys);
    SSLServerSocket socket =
        (SSLServerSocket)
            context
                .getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
    socket.setNeedClientAuth(true);
    try (ScriptedServer server = new ScriptedServer(socket, (request) -> ANSWER, false);
        PeerAsyncHttpClient client = new PeerAsyncHttpClient(context, TIMEOUT, 4, 8)) {
      for (int i = 0; i < 10; i++) {
        get(client, server);
      }
      assertThat(server.connections()).as("connections for 10 requests").hasValueLessThan(5);
    }
  }

  @Test
  void refusesAnInstanceWhoseCertificateNamesAnotherHost() throws Exception {
    SSLContext misnamed = context(keyStore("dns:elsewhere.example"));
    try (ScriptedServer server = tlsServer(misnamed);
        PeerAsyncHttpClient client = new PeerAsyncHttpClient(misnamed, TIMEOUT, 4, 8)) {
      assertThat(client.exchange("127.0.0.1", server.port(), "GET", "/a", Map.of(), null, TIMEOUT))
          .failsWithin(Duration.ofSeconds(30))
          .withThrowableOfType(ExecutionException.class)
          .withRootCauseInstanceOf(SSLException.class);
    }
  }

  private static PeerHttpResponse get(PeerAsyncHttpClient client, ScriptedServer server)
      throws Exception {
    return client
        .exchange("127.0.0.1", server.port(), "GET", "/a", Map.of(), null, TIMEOUT)
        .get(30, TimeUnit.SECONDS);
  }

  private static ScriptedServer tlsServer(SSLContext context) throws IOException {
    return new ScriptedServer(
        context
            .getServerSocketFactory()
            .createServerSocket(0, 50, InetAddress.getLoopbackAddress()),
        (request) -> ANSWER,
        false);
  }

  /** A key store with one self-signed key whose certificate has {@code subjectAlternativeName}. */
  private KeyStore keyStore(String subjectAlternativeName) throws Exception {
    Path file = this.directory.resolve(subjectAlternativeName.replace(':', '-') + ".p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process process =
        new ProcessBuilder(
                List.of(
                    keytool.toString(),
                    "-genkeypair",
                    "-alias",
                    "peer",
                    "-keyalg",
                    "EC",
                    "-dname",
                    "CN=peer",
                    "-ext",
                    "san=" + subjectAlternativeName,
                    "-validity",
                    "2",
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    file.toString(),
                    "-storepass",
                    new String(PASSWORD)))
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      keys.load(in, PASSWORD);
    }
    return keys;
  }

  /** A context that presents the key of {@code keys} and trusts its certificate alone. */
  private static SSLContext context(KeyStore keys) throws Exception {
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, PASSWORD);
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(keys);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
    return context;
  }
}
