package org.metope.comm;

import java.util.List;
import java.util.function.Consumer;

/**
 * The behaviour every {@link Communicator} backend must show, as checks that run on all ranks of a
 * communicator and throw {@link AssertionError} on the first deviation. The same checks run
 * against in-process ranks in the mesh unit tests and against MPJ Express (multicore and niodev)
 * through {@link CommunicatorSelfTest}, so one suite defines the contract for all backends.
 *
 * <p>Every expected value is computed independently on each rank from a formula of (rank, index),
 * never copied from another backend's output; reductions are checked against a local fold of the
 * known contributions in rank order. Each check uses its own tags and ends with a barrier, so a
 * stray message cannot satisfy a later check.
 */
public final class CommunicatorContract {
  private CommunicatorContract() {}

  /** A named check, run collectively by every rank. */
  public record Check(String name, Consumer<Communicator> body) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Every check, in the order {@link CommunicatorSelfTest} runs them. */
  public static List<Check> checks() {
    return List.of(
        new Check("rankAndSize", ContractPointToPoint::rankAndSize),
        new Check("ringOfSlices", ContractPointToPoint::ringOfSlices),
        new Check("tagsMatchOutOfOrder", ContractPointToPoint::tagsMatchOutOfOrder),
        new Check("sameTagKeepsOrder", ContractPointToPoint::sameTagKeepsOrder),
        new Check("probeReportsPendingLength", ContractPointToPoint::probeReportsPendingLength),
        new Check("zeroLengthMessages", ContractPointToPoint::zeroLengthMessages),
        new Check("requestsAreReusable", ContractPointToPoint::requestsAreReusable),
        new Check("largeMessages", ContractPointToPoint::largeMessages),
        new Check("startedReceiveLetsLargeSendComplete",
            ContractPointToPoint::startedReceiveLetsLargeSendComplete),
        new Check("sameTagReceivesMatchInStartedOrder",
            ContractPointToPoint::sameTagReceivesMatchInStartedOrder),
        new Check("truncationIsReported", ContractPointToPoint::truncationIsReported),
        new Check("misuseIsRejected", ContractPointToPoint::misuseIsRejected),
        new Check("ringOfBufferSlices", ContractMessageBuffers::ringOfBufferSlices),
        new Check("largeBufferMessagesAndArraysInOrder",
            ContractMessageBuffers::largeBufferMessagesAndArraysInOrder),
        new Check("busyBufferRefusesJava", ContractMessageBuffers::busyBufferRefusesJava),
        new Check("foreignBuffersAndRangesAreRejected",
            ContractMessageBuffers::foreignBuffersAndRangesAreRejected),
        new Check("allreduceScalars", ContractCollectives::allreduceScalars),
        new Check("allreduceArraysFoldInRankOrder", ContractCollectives::allreduceArrays),
        new Check("allreduceMixedOpsInOneCollective", ContractCollectives::allreduceMixedOps),
        new Check("allgatherVariableLengths", ContractCollectives::allgatherVariableLengths),
        new Check("gatherToEveryRoot", ContractCollectives::gatherToEveryRoot),
        new Check("broadcastFromEveryRoot", ContractCollectives::broadcastFromEveryRoot),
        new Check("barrierInterleavedWithCollectives", ContractCollectives::barriers),
        new Check("duplicatesHaveSeparateTagSpaces", ContractCollectives::duplicates),
        new Check("globalOrderSumIsDecompositionFree", ContractCollectives::globalOrderSum),
        new Check("globalOrderFoldIsDecompositionFree", ContractCollectives::globalOrderFold));
  }

  /** Throws {@link AssertionError} with {@code message} unless {@code condition}. */
  static void expect(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }

  /** Checks {@code actual == expected} bit for bit. */
  static void expectBits(double expected, double actual, String what) {
    if (Double.doubleToRawLongBits(expected) != Double.doubleToRawLongBits(actual)) {
      throw new AssertionError(what + ": expected=" + expected + ", actual=" + actual);
    }
  }

  /** Runs {@code body} and checks it throws {@code type} with a message containing {@code part}. */
  static void expectThrows(Class<? extends RuntimeException> type, String part, Runnable body) {
    try {
      body.run();
    } catch (RuntimeException e) {
      expect(type.isInstance(e), "expected " + type.getSimpleName() + ", got " + e);
      expect(e.getMessage() != null && e.getMessage().contains(part),
          "message should contain '" + part + "': message=" + e.getMessage());
      return;
    }
    throw new AssertionError("expected " + type.getSimpleName() + " containing '" + part + "'");
  }
}
