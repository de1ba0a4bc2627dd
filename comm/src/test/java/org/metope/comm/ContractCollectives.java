package org.metope.comm;

import static org.metope.comm.CommunicatorContract.expect;
import static org.metope.comm.CommunicatorContract.expectBits;
import static org.metope.comm.ContractPointToPoint.value;

import java.util.Arrays;

/**
 * The collective part of {@link CommunicatorContract}: reductions are checked against a local fold
 * of every rank's known contribution in rank order, gathers against a locally built concatenation.
 */
final class ContractCollectives {
  private ContractCollectives() {}

  /** Rank {@code r}'s contribution to element {@code i} of the array reductions. */
  private static double contribution(int r, int i) {
    if (i == 0) {
      // 1e16 + 1 rounds back to 1e16, so only a rank-order fold gives the expected bits
      return r == 0 ? 1e16 : 1.0;
    }
    return (r + 1) * (i + 0.1) * (r % 2 == 0 ? 1 : -1);
  }

  private static double foldDouble(int size, int i, ReduceOp op) {
    double acc = contribution(0, i);
    for (int r = 1; r < size; r++) {
      acc = op.apply(acc, contribution(r, i));
    }
    return acc;
  }

  private static long longContribution(int r, int i) {
    return (r + 1) * 1_000_000_007L * (i + 1) * (r % 3 == 1 ? -1 : 1);
  }

  static void allreduceScalars(Communicator c) {
    int n = c.size();
    double mine = c.rank() + 0.5;
    double sum = 0.5;
    for (int r = 1; r < n; r++) {
      sum += r + 0.5;
    }
    expectBits(sum, c.allreduce(mine, ReduceOp.SUM), "allreduce double SUM");
    expectBits(0.5, c.allreduce(mine, ReduceOp.MIN), "allreduce double MIN");
    expectBits(n - 0.5, c.allreduce(mine, ReduceOp.MAX), "allreduce double MAX");
    long mineLong = longContribution(c.rank(), 0);
    long sumLong = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int r = 0; r < n; r++) {
      sumLong += longContribution(r, 0);
      min = Math.min(min, longContribution(r, 0));
      max = Math.max(max, longContribution(r, 0));
    }
    expect(c.allreduce(mineLong, ReduceOp.SUM) == sumLong, "allreduce long SUM: expected="
        + sumLong);
    expect(c.allreduce(mineLong, ReduceOp.MIN) == min, "allreduce long MIN: expected=" + min);
    expect(c.allreduce(mineLong, ReduceOp.MAX) == max, "allreduce long MAX: expected=" + max);
    c.barrier();
  }

  static void allreduceArrays(Communicator c) {
    int length = 5;
    for (ReduceOp op : ReduceOp.values()) {
      double[] values = new double[length];
      long[] longs = new long[length];
      for (int i = 0; i < length; i++) {
        values[i] = contribution(c.rank(), i);
        longs[i] = longContribution(c.rank(), i);
      }
      c.allreduce(values, op);
      c.allreduce(longs, op);
      for (int i = 0; i < length; i++) {
        expectBits(foldDouble(c.size(), i, op), values[i], "allreduce double[] " + op + " [" + i
            + "]");
        long expected = longContribution(0, i);
        for (int r = 1; r < c.size(); r++) {
          expected = op.apply(expected, longContribution(r, i));
        }
        expect(longs[i] == expected, "allreduce long[] " + op + " [" + i + "]: expected="
            + expected + ", actual=" + longs[i]);
      }
    }
    c.allreduce(new double[0], ReduceOp.SUM);
    c.barrier();
  }

  static void allreduceMixedOps(Communicator c) {
    ReduceOp[] ops = {ReduceOp.SUM, ReduceOp.MIN, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.SUM};
    long[] values = new long[ops.length];
    for (int i = 0; i < 4; i++) {
      values[i] = longContribution(c.rank(), i);
    }
    values[3] = ReduceOp.MIN.encode(contribution(c.rank(), 1));
    values[4] = c.rank() == c.size() - 1 ? 1 : 0;
    c.allreduce(values, ops);
    for (int i = 0; i < 3; i++) {
      long expected = longContribution(0, i);
      for (int r = 1; r < c.size(); r++) {
        expected = ops[i].apply(expected, longContribution(r, i));
      }
      expect(values[i] == expected, "allreduce long[] with ops, " + ops[i] + " [" + i
          + "]: expected=" + expected + ", actual=" + values[i]);
    }
    double min = contribution(0, 1);
    for (int r = 1; r < c.size(); r++) {
      min = Math.min(min, contribution(r, 1));
    }
    expectBits(min, ReduceOp.decode(values[3]), "an encoded double MIN among longs");
    expect(values[4] == 1, "a flag set on the last rank only: sum=" + values[4]);
    allreduceMixedOpsAtTheExtremes(c);
    c.allreduce(new long[0], new ReduceOp[0]);
    c.barrier();
  }

  /**
   * The ends of the long range in a mixed reduction: Long.MIN_VALUE wins a MIN (a device that
   * negates minima to reduce them as maxima would lose it, -MIN_VALUE being MIN_VALUE), MAX_VALUE
   * a MAX, sums wrap, and an encoded double MAX keeps 0.0 above -0.0; only MIN ops, then only
   * MAX ops, too. The expected values are the rank-order fold of the contributions.
   */
  private static void allreduceMixedOpsAtTheExtremes(Communicator c) {
    ReduceOp[] ops = {ReduceOp.MIN, ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MAX, ReduceOp.MIN};
    long[] values = new long[ops.length];
    long[] expected = new long[ops.length];
    for (int r = 0; r < c.size(); r++) {
      long[] mine = extremeContributions(r);
      for (int i = 0; i < ops.length; i++) {
        expected[i] = r == 0 ? mine[i] : ops[i].apply(expected[i], mine[i]);
        if (r == c.rank()) {
          values[i] = mine[i];
        }
      }
    }
    c.allreduce(values, ops);
    for (int i = 0; i < ops.length; i++) {
      expect(values[i] == expected[i], "allreduce long[] with ops at the extremes, " + ops[i]
          + " [" + i + "]: expected=" + expected[i] + ", actual=" + values[i]);
    }
    expectBits(c.size() > 1 ? 0.0 : -0.0, ReduceOp.decode(values[3]),
        "an encoded double MAX of -0.0 and 0.0");
    long[] mins = {extremeContributions(c.rank())[0], extremeContributions(c.rank())[4]};
    c.allreduce(mins, new ReduceOp[] {ReduceOp.MIN, ReduceOp.MIN});
    expect(mins[0] == expected[0] && mins[1] == expected[4], "allreduce long[] of MIN ops only: "
        + mins[0] + ", " + mins[1]);
    long[] maxes = {extremeContributions(c.rank())[2]};
    c.allreduce(maxes, new ReduceOp[] {ReduceOp.MAX});
    expect(maxes[0] == expected[2], "allreduce long[] of one MAX op: " + maxes[0]);
  }

  private static long[] extremeContributions(int r) {
    boolean last = r % 2 == 1;
    return new long[] {
      last ? Long.MIN_VALUE : -r,
      Long.MAX_VALUE - r,
      last ? Long.MAX_VALUE : r,
      ReduceOp.MAX.encode(r == 0 ? -0.0 : 0.0),
      r % 3 == 2 ? -1 : Long.MAX_VALUE - 7 * r};
  }

  static void allgatherVariableLengths(Communicator c) {
    int[] mine = new int[c.rank() % 3];
    double[] mineDoubles = new double[(c.rank() + 1) % 3];
    for (int i = 0; i < mine.length; i++) {
      mine[i] = c.rank() * 100 + i;
    }
    for (int i = 0; i < mineDoubles.length; i++) {
      mineDoubles[i] = value(c.rank(), i);
    }
    int[] ints = c.allgather(mine);
    double[] doubles = c.allgather(mineDoubles);
    int at = 0;
    int atDoubles = 0;
    for (int r = 0; r < c.size(); r++) {
      for (int i = 0; i < r % 3; i++) {
        expect(at < ints.length && ints[at] == r * 100 + i, "allgather int at " + at
            + ": expected=" + (r * 100 + i) + ", all=" + Arrays.toString(ints));
        at++;
      }
      for (int i = 0; i < (r + 1) % 3; i++) {
        expectBits(value(r, i), doubles[atDoubles], "allgather double at " + atDoubles);
        atDoubles++;
      }
    }
    expect(at == ints.length && atDoubles == doubles.length, "allgather lengths: ints="
        + ints.length + ", expected=" + at + ", doubles=" + doubles.length + ", expected="
        + atDoubles);
    c.barrier();
  }

  static void gatherToEveryRoot(Communicator c) {
    double[] mine = new double[(c.rank() + 2) % 3];
    for (int i = 0; i < mine.length; i++) {
      mine[i] = value(c.rank(), i);
    }
    for (int root = 0; root < c.size(); root++) {
      double[] all = c.gather(mine, root);
      if (c.rank() != root) {
        expect(all.length == 0, "gather to " + root + " leaves rank " + c.rank() + " nothing: "
            + "length=" + all.length);
        continue;
      }
      int at = 0;
      for (int r = 0; r < c.size(); r++) {
        for (int i = 0; i < (r + 2) % 3; i++) {
          expect(at < all.length, "gather to " + root + ": too short, length=" + all.length);
          expectBits(value(r, i), all[at], "gather to " + root + " at " + at);
          at++;
        }
      }
      expect(at == all.length, "gather to " + root + " length: expected=" + at + ", actual="
          + all.length);
    }
    c.barrier();
  }

  static void broadcastFromEveryRoot(Communicator c) {
    for (int root = 0; root < c.size(); root++) {
      double[] data = new double[6];
      int[] ints = new int[3];
      if (c.rank() == root) {
        for (int i = 0; i < data.length; i++) {
          data[i] = value(root, i);
        }
        Arrays.fill(ints, root + 7);
      } else {
        Arrays.fill(data, Double.NaN);
      }
      c.broadcast(data, root);
      c.broadcast(ints, root);
      for (int i = 0; i < data.length; i++) {
        expectBits(value(root, i), data[i], "broadcast from root " + root + " [" + i + "]");
      }
      expect(ints[2] == root + 7, "broadcast int from root " + root + ": actual=" + ints[2]);
    }
    c.barrier();
  }

  static void barriers(Communicator c) {
    for (int step = 0; step < 10; step++) {
      c.barrier();
      long sum = c.allreduce((long) step, ReduceOp.SUM);
      expect(sum == (long) step * c.size(), "step counter after barrier: expected="
          + (long) step * c.size() + ", actual=" + sum);
    }
    c.barrier();
  }

  static void duplicates(Communicator c) {
    Communicator dup = c.duplicate();
    Communicator dupOfDup = dup.duplicate();
    expect(dup.size() == c.size() && dup.rank() == c.rank(), "duplicate keeps rank and size");
    int next = (c.rank() + 1) % c.size();
    int prev = (c.rank() + c.size() - 1) % c.size();
    Communicator[] comms = {c, dup, dupOfDup};
    Request[] sends = new Request[3];
    for (int k = 0; k < 3; k++) {
      sends[k] = comms[k].isend(new double[] {value(c.rank(), k)}, 0, 1, next, 7);
    }
    for (int k = 2; k >= 0; k--) {
      double[] got = new double[1];
      comms[k].irecv(got, 0, 1, prev, 7).waitFor();
      expectBits(value(prev, k), got[0], "message on communicator " + k + " of 3 with tag 7");
    }
    for (Request s : sends) {
      s.waitFor();
    }
    long onDup = dup.allreduce(1L, ReduceOp.SUM);
    long onWorld = c.allreduce(2L, ReduceOp.SUM);
    expect(onDup == c.size() && onWorld == 2L * c.size(), "collectives on a duplicate: dup="
        + onDup + ", world=" + onWorld);
    dupOfDup.barrier();
    c.barrier();
  }

  static void globalOrderSum(Communicator c) {
    int blocks = 23;
    int width = 2;
    int mineCount = 0;
    for (int gid = 0; gid < blocks; gid++) {
      mineCount += owner(gid, c.size()) == c.rank() ? 1 : 0;
    }
    int[] gids = new int[mineCount];
    double[] values = new double[mineCount * width];
    int b = 0;
    for (int gid = blocks - 1; gid >= 0; gid--) {
      if (owner(gid, c.size()) == c.rank()) {
        gids[b] = gid;
        values[b * width] = blockValue(gid, 0);
        values[b * width + 1] = blockValue(gid, 1);
        b++;
      }
    }
    double[] sums = GlobalOrderSum.sumInGlobalBlockOrder(c, gids, values, width);
    for (int k = 0; k < width; k++) {
      double serial = 0.0;
      for (int gid = 0; gid < blocks; gid++) {
        serial += blockValue(gid, k);
      }
      expectBits(serial, sums[k], "global-order sum " + k);
    }
    c.barrier();
  }

  /**
   * The running total through every block in gid order, on blocks owned in runs of three gids
   * that go round the ranks backwards, against one loop over all blocks.
   */
  static void globalOrderFold(Communicator c) {
    int blocks = 23;
    int size = c.size();
    java.util.function.IntUnaryOperator ownerOf = gid -> size - 1 - (gid / 3) % size;
    int[] gids = java.util.stream.IntStream.range(0, blocks)
        .filter(g -> ownerOf.applyAsInt(g) == c.rank()).toArray();
    Communicator own = c.duplicate();
    double[] totals = GlobalOrderSum.foldInGlobalBlockOrder(own, gids, ownerOf, blocks, 2,
        (b, running) -> {
          running[0] += blockValue(gids[b], 0);
          running[0] += blockValue(gids[b], 1);
          running[1] += 1.0;
        });
    double serial = 0.0;
    for (int gid = 0; gid < blocks; gid++) {
      serial += blockValue(gid, 0);
      serial += blockValue(gid, 1);
    }
    expectBits(serial, totals[0], "global-order fold");
    expectBits(blocks, totals[1], "global-order fold counts every block once");
    c.barrier();
  }

  private static int owner(int gid, int size) {
    return (gid * 7 + 3) % size;
  }

  private static double blockValue(int gid, int k) {
    return Math.pow(10.0, (gid * 5 + k) % 17 - 8) / (gid + 3.0);
  }
}
