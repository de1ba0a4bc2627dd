package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.app.ApplicationRunner;
import org.metope.bvals.InOneBoundaryCommunication;
import org.metope.comm.InProcessCluster;
import org.metope.driver.RunOptions;
import org.metope.mesh.Mesh;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.input.ParameterInput;
import org.metope.mesh.view.BlockView;
import org.metope.mesh.view.IndexBox;

/** The package run in process on the project's deck, against answers known without it. */
class MyPackageTest {
  @TempDir Path dir;

  private Mesh run(String... overrides) {
    ParameterInput pin = ParameterInput.load(Path.of("inputs/my_package.in"), List.of(overrides));
    PrintStream discard = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    return ApplicationRunner.simulate(new MyApplication(), new ApplicationRunner.Launch(pin,
        RunOptions.of(dir, discard), discard, InProcessCluster.singleRank(),
        InOneBoundaryCommunication::fromInput)).mesh();
  }

  private static double total(Mesh mesh) {
    double sum = 0.0;
    for (MeshData md : mesh.meshData("base")) {
      for (int b = 0; b < md.numBlocks(); b++) {
        sum += MyPackage.total(md, b);
      }
    }
    return sum;
  }

  /** The largest value of {@code u} on the interior cells. */
  private static double peak(Mesh mesh) {
    double peak = 0.0;
    for (MeshData md : mesh.meshData("base")) {
      IndexBox cells = MyPackage.interior(md);
      for (int b = 0; b < md.numBlocks(); b++) {
        BlockView u = BlockView.of(md, "u", b);
        for (int j = cells.j().s(); j <= cells.j().e(); j++) {
          for (int i = cells.i().s(); i <= cells.i().e(); i++) {
            peak = Math.max(peak, u.get(0, 0, j, i));
          }
        }
      }
    }
    return peak;
  }

  @Test
  void heatIsConservedAndSpreads() {
    Mesh start = run("parthenon/time/nlim=0");
    Mesh end = run();
    // In 2D the Gaussian holds amplitude * 2 pi width^2; periodic boundaries keep it all.
    assertEquals(2.0 * Math.PI * 0.05 * 0.05, total(start), 1e-6);
    assertEquals(total(start), total(end), 1e-14 * total(start));
    assertTrue(peak(end) < 0.9 * peak(start), "the peak flattens: " + peak(end));
  }
}
