package org.metope.comm;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The communicator contract against in-process ranks: every check of {@link
 * CommunicatorContract} on 1, 2, 3, 4, 5 and 8 threads. The same checks run against MPJ Express in the
 * test module through {@link CommunicatorSelfTest}.
 */
class InProcessCommunicatorContractTest {

  static Stream<Arguments> checksAndRanks() {
    return CommunicatorContract.checks().stream()
        .flatMap(check -> Stream.of(1, 2, 3, 4, 5, 8).map(ranks -> Arguments.of(check, ranks)));
  }

  @ParameterizedTest(name = "{0} on {1} ranks")
  @MethodSource("checksAndRanks")
  void givenInProcessRanks_thenContractCheckHolds(CommunicatorContract.Check check, int ranks) {
    InProcessRun.run(ranks, check.body());
  }
}
