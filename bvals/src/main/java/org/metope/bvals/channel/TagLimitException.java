package org.metope.bvals.channel;

/**
 * Two ranks share more block boundaries than there are MPI tags ({@link
 * TagMap#MAX_TAGS_PER_RANK_PAIR}). This is a limit of the run's decomposition, not a bug: the
 * message says so in one sentence, for the driver to print as it is.
 */
public final class TagLimitException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final int myRank;
  private final int otherRank;
  private final int tagsNeeded;

  TagLimitException(int myRank, int otherRank, int tagsNeeded) {
    super("ranks " + Math.min(myRank, otherRank) + " and " + Math.max(myRank, otherRank)
        + " share " + tagsNeeded + " block boundaries, each needing its own message tag, but "
        + "at most " + TagMap.MAX_TAGS_PER_RANK_PAIR + " tags are allowed per pair of ranks "
        + "(MPI's guaranteed tag limit); use fewer, larger meshblocks or another number of ranks");
    this.myRank = myRank;
    this.otherRank = otherRank;
    this.tagsNeeded = tagsNeeded;
  }

  /** The rank that built the tag map. */
  public int myRank() {
    return myRank;
  }

  /** The other rank of the pair. */
  public int otherRank() {
    return otherRank;
  }

  /** Tags the pair would need. */
  public int tagsNeeded() {
    return tagsNeeded;
  }
}
