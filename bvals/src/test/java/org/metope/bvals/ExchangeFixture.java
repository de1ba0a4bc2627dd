package org.metope.bvals;

import java.util.List;
import org.metope.bvals.channel.PostingOrder;
import org.metope.comm.Communicator;
import org.metope.kernels.KernelBackend;
import org.metope.kernels.KernelBackends;
import org.metope.mesh.Mesh;
import org.metope.mesh.MeshConfiguration;
import org.metope.mesh.field.MeshData;
import org.metope.mesh.field.Packages;
import org.metope.mesh.field.SparseConfig;
import org.metope.mesh.field.StateDescriptor;
import org.metope.mesh.input.ParameterInput;
import org.metope.tasking.TaskCollection;
import org.metope.tasking.TaskId;
import org.metope.tasking.TaskList;
import org.metope.tasking.TaskRegion;

/** A mesh from deck text with one package, its boundary communication, and a reusable exchange. */
final class ExchangeFixture implements AutoCloseable {
  final Mesh mesh;
  final KernelBackend backend;
  final InOneBoundaryCommunication comm;
  final TaskCollection exchange;

  ExchangeFixture(String deck, Communicator world, StateDescriptor pkg) {
    this(deck, world, pkg, true);
  }

  /** As above, with cross-rank channels coalesced into one message per group or not. */
  ExchangeFixture(String deck, Communicator world, StateDescriptor pkg, boolean coalesce) {
    this(deck, world, pkg, coalesce, KernelBackends.create("jvm", 1));
  }

  /** As above, launching the kernels on {@code backend}, which the fixture closes. */
  ExchangeFixture(String deck, Communicator world, StateDescriptor pkg, boolean coalesce,
      KernelBackend backend) {
    ParameterInput pin = ParameterInput.parse("fixture.in", deck, List.of());
    mesh = Mesh.build(MeshConfiguration.fromInput(pin), world);
    Packages packages = new Packages();
    packages.add(pkg);
    mesh.initializeFields(packages, List.of("base"));
    this.backend = backend;
    comm = new InOneBoundaryCommunication(backend, PostingOrder.cacheOrder(),
        SparseConfig.fromInput(pin), coalesce);
    comm.setup(mesh);
    exchange = buildExchange();
  }

  private TaskCollection buildExchange() {
    TaskCollection tc = new TaskCollection();
    List<MeshData> parts = mesh.meshData("base");
    TaskRegion region = tc.addRegion(parts.size());
    for (int i = 0; i < parts.size(); i++) {
      MeshData md = parts.get(i);
      TaskList tl = region.get(i);
      TaskId start = tl.addTask(TaskId.NONE, "start", () -> comm.startReceiveBoundaries(md));
      comm.addBoundaryExchange(start, tl, md);
    }
    return tc;
  }

  /** A 3D periodic mesh of 2^3 blocks of 8^3 cells, {@code packSize} blocks per partition. */
  static String periodic3d(int packSize) {
    StringBuilder s = new StringBuilder("<parthenon/mesh>\nrefinement = none\npack_size = "
        + packSize + "\n");
    for (int a = 1; a <= 3; a++) {
      s.append("nx").append(a).append(" = 16\nx").append(a).append("min = 0\nx").append(a)
          .append("max = 1\nix").append(a).append("_bc = periodic\nox").append(a)
          .append("_bc = periodic\n");
    }
    s.append("<parthenon/meshblock>\nnx1 = 8\nnx2 = 8\nnx3 = 8\n");
    return s.toString();
  }

  @Override
  public void close() {
    backend.close();
  }
}
