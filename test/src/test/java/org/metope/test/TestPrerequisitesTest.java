package org.metope.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./metope test} obtains what the suite needs before running it: as root it installs the
 * missing Debian packages with apt-get; otherwise it names them in one sentence and exits 2. The
 * system's dpkg, id and apt-get are replaced by scripts, and the run stops after the check.
 */
class TestPrerequisitesTest {
  @TempDir
  Path dir;

  /** A fake dpkg that knows every package except python3-h5py. */
  private Path fakes(String uid) throws IOException {
    Path dpkg = script("dpkg", "[ \"$2\" != python3-h5py ]");
    Path id = script("id", "echo " + uid);
    Path apt = script("apt-get", "echo \"$*\" >> " + dir.resolve("apt.calls"));
    assertTrue(Files.isExecutable(dpkg) && Files.isExecutable(id) && Files.isExecutable(apt));
    return dir;
  }

  private Path script(String name, String body) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, "#!/usr/bin/env bash\n" + body + "\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return p;
  }

  private ProcessResult runCheck(Path fakes) throws Exception {
    return ProcessResult.run(RepoPaths.root(), 60, Map.of("METOPE_DPKG",
        fakes.resolve("dpkg").toString(), "METOPE_ID", fakes.resolve("id").toString(),
        "METOPE_APT_GET", fakes.resolve("apt-get").toString(), "METOPE_PREREQUISITES_ONLY", "1"),
        RepoPaths.launcher().toString(), "test");
  }

  @Test
  void givenAMissingPackageAndNoRoot_thenOneSentenceNamesItAndTheSuiteDoesNotStart()
      throws Exception {
    ProcessResult r = runCheck(fakes("1000"));
    assertEquals(2, r.exitCode(), r.output());
    assertEquals(1, r.output().strip().lines().count(), r.output());
    assertTrue(r.output().contains("python3-h5py")
        && r.output().contains("sudo apt-get install -y python3-h5py"), r.output());
    assertFalse(r.output().contains("libmpj-java"), r.output());
    assertFalse(Files.exists(dir.resolve("apt.calls")));
  }

  @Test
  void givenAMissingPackageAsRoot_thenAptGetInstallsExactlyIt() throws Exception {
    ProcessResult r = runCheck(fakes("0"));
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("installing what the test suite needs: python3-h5py"),
        r.output());
    String calls = Files.readString(dir.resolve("apt.calls"));
    assertTrue(calls.contains("update") && calls.contains("install -y -qq python3-h5py"), calls);
  }
}
