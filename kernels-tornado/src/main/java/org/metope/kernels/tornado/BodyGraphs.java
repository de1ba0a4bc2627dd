package org.metope.kernels.tornado;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.metope.kernels.body.StageLaunch;

/**
 * The package bodies of one resident arena's execution plan ({@link ResidentPlan}), each with a
 * task graph of its own after the framework's, numbered in the order the bodies were first
 * launched: its task is the body's launcher ({@link BodyLaunchers}), a copy of a template with
 * the body's static call put in, so TornadoVM compiles the body into the kernel. A launch whose
 * body has no graph yet makes the plan again ({@link TornadoResident}); bodies stay for the
 * plan's life, across remeshes.
 */
final class BodyGraphs {
  /** A body's graph: its shape and its launcher as a TornadoVM task. */
  record Body(BodyLaunchers.Shape shape, Object task) {}

  private final List<Body> bodies = new ArrayList<>();
  private final Map<Class<?>, Integer> byLauncher = new HashMap<>();
  /** The graph of each launch seen, so a body's method is looked up once per launch. */
  private final Map<StageLaunch, Integer> byLaunch = new IdentityHashMap<>();

  /** Number of body graphs. */
  int size() {
    return bodies.size();
  }

  /** Body graph {@code n}. */
  Body get(int n) {
    return bodies.get(n);
  }

  /** The body graph of {@code launch}, or -1 when its body has none yet ({@link #add}). */
  int graph(StageLaunch launch) {
    Integer n = byLaunch.get(launch);
    if (n == null) {
      n = byLauncher.get(BodyLaunchers.launcher(shape(launch), body(launch)));
      if (n == null) {
        return -1;
      }
      byLaunch.put(launch, n);
    }
    return n;
  }

  /** Adds a graph for the body of {@code launch}. */
  void add(StageLaunch launch) {
    BodyLaunchers.Shape shape = shape(launch);
    Class<?> launcher = BodyLaunchers.launcher(shape, body(launch));
    try {
      bodies.add(new Body(shape, launcher.getMethod("task").invoke(null)));
    } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("a launcher copy lost its task: " + launcher.getName(), e);
    }
    byLauncher.put(launcher, bodies.size() - 1);
  }

  /** Forgets the launches seen (a new arena's launches replace them); the graphs stay. */
  void forgetLaunches() {
    byLaunch.clear();
  }

  private static BodyLaunchers.Shape shape(StageLaunch launch) {
    return launch.kind == StageLaunch.Kind.CELLS ? BodyLaunchers.Shape.CELLS
        : BodyLaunchers.Shape.REDUCTION;
  }

  /** The fold of a reduction launch of {@code kind}, as {@link ReductionLauncher} reads it. */
  static int fold(StageLaunch.Kind kind) {
    return switch (kind) {
      case CELLS_MINIMUM -> ReductionLauncher.MINIMUM;
      case CELLS_MAXIMUM -> ReductionLauncher.MAXIMUM;
      case CELLS_SUM -> ReductionLauncher.SUM;
      default -> throw new IllegalStateException("not a reduction: kind=" + kind);
    };
  }

  private static Object body(StageLaunch launch) {
    return launch.kind == StageLaunch.Kind.CELLS ? launch.body : launch.measure;
  }
}
