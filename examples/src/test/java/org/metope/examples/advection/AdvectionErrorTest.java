package org.metope.examples.advection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metope.mesh.Mesh;
import org.metope.mesh.SimTime;
import org.metope.mesh.field.MeshData;

class AdvectionErrorTest {
  @TempDir Path dir;

  @Test
  void givenTheInitialStateWithOneCellOff_thenL1AndMaxErrorInParthenonsLayoutAppended()
      throws IOException {
    Mesh mesh = AdvectionMeshes.mesh(AdvectionMeshes.pin(AdvectionMeshes.deck(2, 8, 4,
        "profile = hard_sphere\n")));
    AdvectionProblem problem = new AdvectionProblem(
        mesh.packages().get(AdvectionPackage.NAME).params());
    MeshData md = mesh.meshData("base").get(0);
    for (int b = 0; b < md.numBlocks(); b++) {
      problem.generate(md, b);
    }
    SimTime tm = new SimTime(0, 1, -1, 7, 1, 0, 0.1);
    AdvectionError.write(mesh, problem, tm, dir);
    int q = md.state().fieldId("advected");
    md.data()[md.index(q, 2, 0, 0, 3, 3)] += 0.5;
    AdvectionError.write(mesh, problem, tm, dir);

    // One cell of volume 1/64 is off by 0.5 on a domain of volume 1.
    assertEquals(List.of("# Nx1  Nx2  Nx3  Ncycle  L1 max_error/L1  max_error ",
        "8  8  1  7  0.000000e+00   0.000000e+00  0.000000e+00  ",
        "8  8  1  7  7.812500e-03   6.400000e+01  5.000000e-01  "),
        Files.readAllLines(dir.resolve(AdvectionError.FILE)));
  }
}
