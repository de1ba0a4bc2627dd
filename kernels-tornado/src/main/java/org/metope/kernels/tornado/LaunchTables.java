package org.metope.kernels.tornado;

import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.metope.kernels.table.BoundaryTable;
import org.metope.kernels.KernelKind;
import org.metope.kernels.body.StageLaunch;
import org.metope.kernels.body.TagLaunch;

/**
 * Everything that describes the launches of one resident arena, in arrays whose identity and
 * length do not change from launch to launch, so that the resident TornadoVM backend's task graphs
 * (fixed when its execution plan is made, {@link TornadoResident}) serve every launch: a launch
 * not seen before only appends to these tables, and a launch is then its {@code args} (a few
 * ints). The arrays have capacities; when one is outgrown, {@code resize} is handed the change
 * (the plan is made again around it). Tables that stay on the device grow to twice what is
 * needed, so that happens a few times per run; arrays that cross at every launch grow to what
 * the largest table needs.
 *
 * <pre>
 *   ints, reals        the column tables of every boundary table seen: column c of boundary b
 *                      of a table registered at base is ints[c * columns + base + b] (so a row
 *                      body called with n = columns and b' = base + b reads the table's own b)
 *   launches           per boundary launch: its subset as b' values, then (load and unload)
 *                      its cross-rank runs in WrittenRegions' layout; per stage or tag launch:
 *                      its entries, entry e' = ENTRY + e at launches[e' * width ...]
 *   launchReals        a stage launch's reals, entry e' at launchReals[e' * realWidth ...]
 *   step               per launch, packed by subset entry: allocated (load, prolongate,
 *                      restrict) or receiveMode (unload); sent at every launch, so sized to
 *                      the largest table seen
 *   flags              a load's non-zero flags, per subset entry; back at every load
 *   sent, received     a load's send region and an unload's received region, packed; each
 *                      crosses whole at every load or unload, so it is sized to the largest
 *                      cross-rank region of a table seen (a launch is usually over a whole
 *                      table: one partition, one direction), not doubled; a quarter more once
 *                      the mesh has changed
 *   results            a tag launch's results, entry e's at results[e * results ...], or a
 *                      per-block minimum's, entry e's at results[e]; back at every such launch, so
 *                      sized to the largest one seen (at least 2 KB)
 * </pre>
 */
final class LaunchTables {
  /** Args of a boundary launch: start of its subset in {@code launches}. */
  static final int SUBSET = 0;
  /** Args: number of entries (boundaries or stage entries). */
  static final int COUNT = 1;
  /** Args of a boundary launch: most rows of a boundary of the subset. */
  static final int ROWS = 2;
  /** Args of a boundary launch: the column stride, {@link #columns}. */
  static final int N = 3;
  /** Args of a load or unload: start of its runs in {@code launches}. */
  static final int RUNS = 4;
  /** Args of a load or unload: number of runs. */
  static final int RUN_COUNT = 5;
  /** Args of a stage launch: its first entry e'. */
  static final int ENTRY = 0;
  /** Args of a stage launch: largest k extent. */
  static final int MAX_K = 2;
  /** Args of a stage launch: largest j extent. */
  static final int MAX_J = 3;
  /** Args of a package body's launch: ints per entry. */
  static final int WIDTH = 4;
  /** Args of a package body's launch: reals per entry. */
  static final int REAL_WIDTH = 5;
  /** Args of a package measure's reduction: its fold ({@link ReductionLauncher}). */
  static final int FOLD = 6;
  /** Length of an args array. */
  static final int ARGS = 7;
  /**
   * Launch ints to reserve at least (256 KB; a quarter as many launch reals), so that the launches
   * of a cycle rarely make the plan again: 64^3 cells on 2 ranks need about 10,000.
   */
  private static final int MIN_LAUNCH_INTS = 1 << 16;

  /**
   * Results to reserve (2 KB, ranges of 128 entries), so that the measures of a small mesh do not
   * make the plan again when they first run; they cross back whole at every measure.
   */
  private static final int MIN_RESULTS = 256;

  /** A boundary launch: its args, and the subset and runs the host side needs. */
  record Boundary(int[] args, int[] subset, int count, int[] runs, int runCount) {}

  /**
   * A boundary launch's identity: its kind, table, subset array (by identity) and count, and the
   * table's columns version (its runs hold buffer offsets).
   */
  private record BoundaryKey(KernelKind kind, BoundaryTable table, int[] subset, int count,
      int version) {}

  /** Where a registered boundary table sits, and the columns version written there. */
  private record Slot(int base, int version) {}

  private final Resizer resize;
  private final Map<BoundaryTable, Slot> slots = new IdentityHashMap<>();
  private final Map<BoundaryKey, Boundary> boundaries = new HashMap<>();
  /** The args of each stage and tag launch seen, by the launch's identity. */
  private final Map<Object, int[]> stages = new IdentityHashMap<>();
  /** Boundary capacity of the column tables. */
  int columns = 1;
  int[] ints = new int[BoundaryTable.INT_COLUMNS];
  double[] reals = new double[BoundaryTable.REAL_COLUMNS];
  int[] launches = new int[1];
  double[] launchReals = new double[1];
  int[] step = new int[1];
  int[] flags = new int[1];
  double[] sent = new double[1];
  double[] received = new double[1];
  double[] results = new double[MIN_RESULTS];
  private int usedColumns;
  private int usedLaunches;
  private int usedLaunchReals;
  /** Whether the device's copies of the four tables are behind the host's. */
  private boolean dirty = true;
  /** Whether the mesh has changed once (so it may grow again): per-launch arrays get room. */
  private boolean headroom;

  /** Makes a capacity change: calls {@code change} with the device values carried around it. */
  interface Resizer {
    void resize(Runnable change);
  }

  LaunchTables(Resizer resize) {
    this.resize = resize;
  }

  /**
   * The mesh changes (there was a remesh): from now on the arrays that cross at every launch grow
   * to a quarter more than needed, so that the next small growth does not make the plan again.
   */
  void expectGrowth() {
    headroom = true;
  }

  /** Forgets every launch (a new arena or buffer arena); capacities stay. */
  void clear() {
    slots.clear();
    boundaries.clear();
    stages.clear();
    usedColumns = 0;
    usedLaunches = 0;
    usedLaunchReals = 0;
    dirty = true;
  }

  /** Whether the tables changed since {@link #uploaded}. */
  boolean dirty() {
    return dirty;
  }

  /** The device has the tables as they are. */
  void uploaded() {
    dirty = false;
  }

  /** Bytes of the four tables, what an upload of them moves. */
  long tableBytes() {
    return 4L * (ints.length + launches.length) + 8L * (reals.length + launchReals.length);
  }

  /**
   * The launch of {@code kind} over {@code subset}, registered if new, with its per-step state
   * packed into {@link #step}.
   */
  Boundary boundary(KernelKind kind, BoundaryTable t, int[] subset, int count) {
    Slot slot = slot(t);
    BoundaryKey key = new BoundaryKey(kind, t, subset, count, slot.version());
    Boundary launch = boundaries.get(key);
    if (launch == null) {
      launch = register(kind, t, subset, count, slot.base());
      boundaries.put(key, launch);
    }
    int[] state = kind == KernelKind.UNLOAD ? t.receiveMode : t.allocated;
    for (int s = 0; s < count; s++) {
      step[s] = state[subset[s]];
    }
    return launch;
  }

  /** The args of stage launch {@code launch}, its entries registered if new. */
  int[] stage(StageLaunch launch) {
    int[] args = stages.get(launch);
    if (args == null) {
      if (!launch.writesArena()) {
        ensureResults(launch.count);
      }
      int first = entries(launch.ints, launch.width, launch.reals, launch.realWidth,
          launch.count);
      args = entryArgs(first, launch.count, launch.maxK, launch.maxJ);
      args[WIDTH] = launch.width;
      args[REAL_WIDTH] = launch.realWidth;
      args[FOLD] = launch.writesArena() ? 0 : BodyGraphs.fold(launch.kind);
      stages.put(launch, args);
    }
    return args;
  }

  /**
   * The args of tag launch {@code launch}, its entries registered if new and {@link #results}
   * large enough for it (as for a smallest step, {@link #stage}).
   */
  int[] tag(TagLaunch launch) {
    int[] args = stages.get(launch);
    if (args == null) {
      ensureResults(launch.count * launch.kind.results);
      int first = entries(launch.ints, launch.kind.width, null, 0, launch.count);
      args = entryArgs(first, launch.count, 0, 0);
      stages.put(launch, args);
    }
    return args;
  }

  private void ensureResults(int needed) {
    if (needed > results.length) {
      resize.resize(() -> results = new double[room(needed)]);
    }
  }

  /**
   * The args of a stage or tag launch of {@code count} entries from entry {@code first} of the
   * launch tables, {@code maxK} and {@code maxJ} its largest k and j extents (0 for a tag launch).
   */
  static int[] entryArgs(int first, int count, int maxK, int maxJ) {
    int[] args = new int[ARGS];
    args[ENTRY] = first;
    args[COUNT] = count;
    args[MAX_K] = maxK;
    args[MAX_J] = maxJ;
    return args;
  }

  /**
   * Appends {@code count} entries of {@code width} ints (and {@code realWidth} reals); returns the
   * first one's entry number.
   */
  private int entries(int[] entryInts, int width, double[] entryReals, int realWidth,
      int count) {
    int first = Math.max(ceilDiv(usedLaunches, width),
        realWidth == 0 ? 0 : ceilDiv(usedLaunchReals, realWidth));
    int intEnd = (first + count) * width;
    int realEnd = (first + count) * realWidth;
    ensure(0, intEnd, realEnd, 0, 0, 0);
    System.arraycopy(entryInts, 0, launches, first * width, count * width);
    if (realWidth > 0) {
      System.arraycopy(entryReals, 0, launchReals, first * realWidth, count * realWidth);
    }
    usedLaunches = intEnd;
    usedLaunchReals = Math.max(usedLaunchReals, realEnd);
    dirty = true;
    return first;
  }

  /** The slot of {@code t}, registered if new, its columns written again if they changed. */
  private Slot slot(BoundaryTable t) {
    Slot slot = slots.get(t);
    if (slot != null && slot.version() == t.columnsVersion()) {
      return slot;
    }
    if (slot == null) {
      ensure(usedColumns + t.size, 0, 0, 0, 0, 0);
      slot = new Slot(usedColumns, t.columnsVersion());
      usedColumns += t.size;
    } else {
      slot = new Slot(slot.base(), t.columnsVersion());
    }
    writeColumns(t, slot.base());
    slots.put(t, slot);
    dirty = true;
    return slot;
  }

  private void writeColumns(BoundaryTable t, int base) {
    for (int c = 0; c < BoundaryTable.INT_COLUMNS; c++) {
      System.arraycopy(t.ints, c * t.size, ints, c * columns + base, t.size);
    }
    for (int c = 0; c < BoundaryTable.REAL_COLUMNS; c++) {
      System.arraycopy(t.reals, c * t.size, reals, c * columns + base, t.size);
    }
  }

  private Boundary register(KernelKind kind, BoundaryTable t, int[] subset, int count,
      int base) {
    boolean staged = kind == KernelKind.LOAD || kind == KernelKind.UNLOAD;
    int[] runs = staged ? crossRuns(t, subset, count) : new int[0];
    int runCount = runs.length / WrittenRegions.COLUMNS;
    int stagingLength = stagingLength(runs, runCount);
    // room for any launch over this table and over its twin of the other direction (as large
    // on a mesh whose neighbours see each other alike): every entry, the cross-rank region
    int region = Math.max(stagingLength, crossCells(t));
    ensure(0, usedLaunches + count + runs.length, 0, t.size, region, region);
    int at = usedLaunches;
    int maxRows = 0;
    for (int s = 0; s < count; s++) {
      launches[at + s] = base + subset[s];
      maxRows = Math.max(maxRows, t.get(BoundaryTable.ROWS, subset[s]));
    }
    System.arraycopy(runs, 0, launches, at + count, runs.length);
    usedLaunches = at + count + runs.length;
    dirty = true;
    int[] args = new int[ARGS];
    args[SUBSET] = at;
    args[COUNT] = count;
    args[ROWS] = maxRows;
    args[N] = columns;
    args[RUNS] = at + count;
    args[RUN_COUNT] = runCount;
    return new Boundary(args, subset, count, runs, runCount);
  }

  /**
   * Makes room: column capacity for {@code cols} boundaries, {@code launchInts} launch ints and
   * {@code realsNeeded} launch reals, {@code count} entries per launch, {@code sentNeeded} and
   * {@code receivedNeeded} staged doubles; through {@link #resize} when something must grow.
   */
  private void ensure(int cols, int launchInts, int realsNeeded, int count, int sentNeeded,
      int receivedNeeded) {
    if (cols <= columns && launchInts <= launches.length
        && realsNeeded <= launchReals.length && count <= step.length
        && sentNeeded <= sent.length && receivedNeeded <= received.length) {
      return;
    }
    resize.resize(() -> {
      if (cols > columns) {
        // eight times: tables for both directions and for refinement, and a remesh's larger ones
        relayColumns(grow(columns, 4 * cols, 0));
      }
      launches = Arrays.copyOf(launches, grow(launches.length, launchInts, MIN_LAUNCH_INTS));
      launchReals = Arrays.copyOf(launchReals,
          grow(launchReals.length, realsNeeded, MIN_LAUNCH_INTS / 4));
      if (count > step.length) {
        step = new int[room(count)];
        flags = new int[step.length];
      }
      if (sentNeeded > sent.length) {
        sent = new double[room(sentNeeded)];
      }
      if (receivedNeeded > received.length) {
        received = new double[room(receivedNeeded)];
      }
      dirty = true;
    });
  }

  /** Column tables of capacity {@code capacity}, each registered table at its old base. */
  private void relayColumns(int capacity) {
    int[] newInts = new int[BoundaryTable.INT_COLUMNS * capacity];
    double[] newReals = new double[BoundaryTable.REAL_COLUMNS * capacity];
    for (int c = 0; c < BoundaryTable.INT_COLUMNS; c++) {
      System.arraycopy(ints, c * columns, newInts, c * capacity, usedColumns);
    }
    for (int c = 0; c < BoundaryTable.REAL_COLUMNS; c++) {
      System.arraycopy(reals, c * columns, newReals, c * capacity, usedColumns);
    }
    ints = newInts;
    reals = newReals;
    columns = capacity;
    for (Boundary b : boundaries.values()) {
      b.args()[N] = capacity;
    }
  }

  /**
   * Twice what is needed (or twice the old capacity), at least {@code floor}: the next tables
   * likely fit too, and these arrays cross only when a launch is new.
   */
  private static int grow(int capacity, int needed, int floor) {
    return needed <= capacity ? capacity : Math.max(floor, 2 * Math.max(needed, capacity));
  }

  /**
   * The capacity of an array that crosses at every launch: what is needed, a quarter more once
   * the mesh has changed ({@link #expectGrowth}).
   */
  private int room(int needed) {
    return headroom ? needed + needed / 4 : needed;
  }

  /** Doubles in the buffer slices of {@code t}'s cross-rank boundaries. */
  private static int crossCells(BoundaryTable t) {
    int n = 0;
    for (int b = 0; b < t.size; b++) {
      if (t.crossRank[b] == 1) {
        n += t.get(BoundaryTable.CELLS, b);
      }
    }
    return n;
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  /**
   * The buffer slices of the cross-rank boundaries of the subset, as runs in {@link
   * WrittenRegions}' layout; at least one run (of length 0).
   */
  static int[] crossRuns(BoundaryTable t, int[] subset, int count) {
    int n = 0;
    for (int e = 0; e < count; e++) {
      n += t.crossRank[subset[e]];
    }
    int runCount = Math.max(1, n);
    int[] runs = new int[WrittenRegions.COLUMNS * runCount];
    int q = 0;
    int staged = 0;
    for (int e = 0; e < count; e++) {
      int b = subset[e];
      if (t.crossRank[b] == 1) {
        int length = t.get(BoundaryTable.CELLS, b);
        runs[WrittenRegions.START * runCount + q] = t.get(BoundaryTable.BUFFER_OFFSET, b);
        runs[WrittenRegions.LENGTH * runCount + q] = length;
        runs[WrittenRegions.STAGING * runCount + q] = staged;
        runs[WrittenRegions.BOUNDARY * runCount + q] = b;
        staged += length;
        q++;
      }
    }
    return runs;
  }

  static int stagingLength(int[] runs, int runCount) {
    int n = 0;
    for (int q = 0; q < runCount; q++) {
      n += runs[WrittenRegions.LENGTH * runCount + q];
    }
    return n;
  }
}
