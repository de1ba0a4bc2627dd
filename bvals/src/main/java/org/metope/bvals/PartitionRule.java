package org.metope.bvals;

import org.metope.mesh.Mesh;

/**
 * Which partition ({@code MeshData}) of its own rank any block belongs to, computed from what every
 * rank knows: the block distribution and {@code <parthenon/mesh> pack_size}. A rank's blocks are
 * consecutive gids and its partitions consecutive groups of {@code pack_size} of them, the last
 * possibly smaller, or all of them in one partition when {@code pack_size} is below 1 ({@code
 * FieldStorage.partitions}, {@link Mesh#defaultPackSize()}):
 *
 * <pre>
 * lid       = gid - firstGid(rank(gid))
 * partition = pack_size &lt; 1 ? 0 : lid / pack_size
 * </pre>
 *
 * <p>A receiving rank uses it to group the channels it receives by the sender's partition, so that
 * its groups match the sender's {@link CoalescedMessage}s without exchanging layouts. If the
 * mesh's partitioning ever stops following this rule, the message fingerprints disagree and the
 * first exchange stops with both values.
 */
final class PartitionRule {
  private PartitionRule() {}

  /** The partition of block {@code gid} on the rank that owns it. */
  static int partitionOf(Mesh mesh, int gid) {
    int packSize = mesh.config().packSize();
    if (packSize < 1) {
      return 0;
    }
    int lid = gid - mesh.distribution().firstGid(mesh.rank(gid));
    return lid / packSize;
  }
}
