package org.metope.outputs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A process that registers a file with {@link ExitCleanup} while its JVM shuts down, for {@link
 * ExitCleanupTest}: it makes the file named by its argument, starts {@code System.exit(3)} in
 * another thread, and registers the file once its own shutdown hook runs. That hook holds the JVM
 * open until the main thread has removed the file or died, so the registration meets a JVM that
 * is shutting down.
 */
final class LateRegistration {
  private LateRegistration() {}

  public static void main(String[] args) throws InterruptedException, java.io.IOException {
    Path file = Files.createFile(Path.of(args[0]));
    Thread main = Thread.currentThread();
    CountDownLatch shuttingDown = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      shuttingDown.countDown();
      while (Files.exists(file) && main.isAlive()) {
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
    }));
    new Thread(() -> System.exit(3)).start();
    shuttingDown.await();
    ExitCleanup.register(file);
    System.out.println("register returned");
  }
}
