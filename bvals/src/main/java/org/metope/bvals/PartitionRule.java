package org.metope.bvals;

import org.metope.mesh.Mesh;

/**
 * Which partition ({@code MeshData}) of its own rank any block belongs to, computed from what every
 * rank knows: the block distribution and the mesh configuration. A rank's blocks are consecutive
 * gids and its partitions consecutive groups of {@code blocksPerPack} of them, the last possibly
 * smaller: {@code pack_size}, or when it is below 1 the rank's blocks over the packs per rank
 * (one unless the run has several task threads; {@code FieldStorage.partitions}, {@link
 * Mesh#defaultPackSize()}, {@code MeshConfiguration.blocksPerPack}):
 *
 * <pre>
 * lid       = gid - firstGid(rank(gid))
 * partition = lid / blocksPerPack(blockCount(rank(gid)))
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
    int rank = mesh.rank(gid);
    int lid = gid - mesh.distribution().firstGid(rank);
    return lid / mesh.config().blocksPerPack(mesh.distribution().blockCount(rank));
  }
}
