package dev.matview.sample;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium, driven by its chromedriver, showing the dashboard of one instance: no
 * browser or driver is downloaded, so the test is skipped where either is missing.
 */
final class DashboardBrowser implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final ChromeDriver driver;

  private DashboardBrowser(ChromeDriver driver) {
    this.driver = driver;
  }

  /** Starts Chromium with a fresh profile under {@code tempDir}, or skips the test without it. */
  static DashboardBrowser start(Path tempDir) {
    assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "The dashboard's browser test needs Debian's chromium and chromium-driver packages ("
            + CHROMIUM
            + ", "
            + CHROMEDRIVER
            + "); .ci/run installs them with apt-get");
    System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, CHROMEDRIVER.toString());
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--user-data-dir=" + tempDir.resolve("chromium-profile"));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
            .usingAnyFreePort()
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    // A laptop's screen: the window's size leaves a smaller page in headless Chromium.
    driver.executeCdpCommand(
        "Emulation.setDeviceMetricsOverride",
        Map.of("width", 1280, "height", 800, "deviceScaleFactor", 1, "mobile", false));
    return new DashboardBrowser(driver);
  }

  /** Opens the dashboard of the instance on {@code port}. */
  void open(int port) {
    this.driver.get("http://localhost:" + port + "/matview");
  }

  /** Waits until the page has read the endpoint once. */
  void awaitFirstRead() {
    new WebDriverWait(this.driver, TIMEOUT).until((driver) -> text("status").contains("updated"));
  }

  /** The texts of the elements that {@code cssSelector} finds now, read in one go. */
  @SuppressWarnings("unchecked")
  List<String> texts(String cssSelector) {
    return (List<String>)
        this.driver.executeScript(
            "return [...document.querySelectorAll(arguments[0])].map((e) => e.innerText)",
            cssSelector);
  }

  /** The text of the element with the id {@code id}. */
  String text(String id) {
    return this.driver.findElement(By.id(id)).getText();
  }

  /**
   * The partitions each instance holds as active replica (restoring or not), as {@code
   * view/partition}, by the instance's {@code host:port}, read in one go.
   */
  @SuppressWarnings("unchecked")
  Map<String, List<String>> activePartitions() {
    return (Map<String, List<String>>)
        this.driver.executeScript(
            """
            const byHost = {};
            document.querySelectorAll(".instance").forEach((instance) => {
              byHost[instance.dataset.host] = [...instance.querySelectorAll("td[data-view]")]
                .filter((cell) => ["A", "R"].includes(cell.innerText.trim()))
                .map((cell) => cell.dataset.view + "/" + cell.dataset.partition);
            });
            return byHost;""");
  }

  /** Looks {@code key} up in {@code view} through the page's lookup box. */
  void lookUp(String view, String key) {
    new Select(this.driver.findElement(By.id("lookup-view"))).selectByValue(view);
    WebElement input = this.driver.findElement(By.id("lookup-key"));
    input.clear();
    input.sendKeys(key);
    this.driver.findElement(By.id("lookup-submit")).click();
  }

  /** Follows the changes of the key in the lookup box live. */
  void follow() {
    this.driver.findElement(By.id("follow")).click();
  }

  /** Saves what the browser shows to {@code file}. */
  void screenshot(Path file) {
    try {
      Files.write(file, this.driver.getScreenshotAs(OutputType.BYTES));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  @Override
  public void close() {
    this.driver.quit();
  }
}
