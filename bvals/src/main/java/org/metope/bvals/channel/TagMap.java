package org.metope.bvals.channel;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.metope.comm.Communicator;
import org.metope.mesh.forest.NeighborIndex;

/**
 * Dense MPI tags for the channels between this rank and each other rank (Parthenon's {@code
 * TagMap}).
 *
 * <p>A channel between two blocks on different ranks is named, for tagging, by the unordered pair
 * of the two {@link BlockElement}s that touch: (sender gid, sender's element) and (receiver gid,
 * receiver's element). Both directions of the exchange get the same pair, so one tag serves both
 * (MPI tells them apart by source rank). For each other rank, the pairs are sorted and numbered
 * from 0:
 *
 * <ul>
 *   <li>a pair is ordered smaller element first, elements by gid then element index;
 *   <li>pairs are sorted by their smaller element, then their larger one.
 * </ul>
 *
 * <p>Both ranks of a pair see the same set of pairs (each adds its side of every shared boundary)
 * and sort them by the same rule, so they assign the same tags without talking to each other, in
 * whatever order the entries were added. The tags are the same for every field: each field has
 * its own communicator ({@link FieldCommunicators}).
 *
 * <p>Tags of a rank pair run from 0 to {@code count - 1}, and {@code count} may not exceed {@link
 * #MAX_TAGS_PER_RANK_PAIR} = {@value #MAX_TAGS_PER_RANK_PAIR} (as in Parthenon, which compares
 * the count with {@code MPI_TAG_UB}); so the largest tag is 32766, below MPI's guaranteed 32767,
 * which stays free for one extra message per rank pair (such as coalesced buffers).
 *
 * <p>Channels within this rank need no tag: entries whose other rank is this rank are ignored,
 * and {@link #tag} returns {@link #NO_TAG} for them.
 */
public final class TagMap {
  /** The tag of a same-rank channel, which sends no message. */
  public static final int NO_TAG = -1;

  /** The most tags one pair of ranks may need. */
  public static final int MAX_TAGS_PER_RANK_PAIR = Communicator.MAX_TAG;

  /**
   * One geometric element of one block.
   *
   * @param gid the block's global id
   * @param element its {@link NeighborIndex#index()}, 0 to 26
   */
  public record BlockElement(int gid, int element) implements Comparable<BlockElement> {
    /** Checks ranges. */
    public BlockElement {
      if (gid < 0 || element < 0 || element >= NeighborIndex.COUNT) {
        throw new IllegalArgumentException("block element out of range: gid=" + gid
            + ", element=" + element);
      }
    }

    @Override
    public int compareTo(BlockElement other) {
      int c = Integer.compare(gid, other.gid);
      return c != 0 ? c : Integer.compare(element, other.element);
    }
  }

  /**
   * Two touching block elements, smaller first, so that {@code (a, b)} and {@code (b, a)} are
   * equal.
   *
   * @param first the smaller element
   * @param second the larger (or equal) element
   */
  public record ElementPair(BlockElement first, BlockElement second)
      implements Comparable<ElementPair> {
    /** Checks the order. */
    public ElementPair {
      if (first == null || second == null || first.compareTo(second) > 0) {
        throw new IllegalArgumentException("pair must be ordered smaller first: first=" + first
            + ", second=" + second);
      }
    }

    /** The pair of {@code a} and {@code b}, in either order. */
    public static ElementPair of(BlockElement a, BlockElement b) {
      return a.compareTo(b) <= 0 ? new ElementPair(a, b) : new ElementPair(b, a);
    }

    @Override
    public int compareTo(ElementPair other) {
      int c = first.compareTo(other.first);
      return c != 0 ? c : second.compareTo(other.second);
    }
  }

  private final int myRank;
  private final Map<Integer, Map<ElementPair, Integer>> tagsByRank;

  private TagMap(int myRank, Map<Integer, Map<ElementPair, Integer>> tagsByRank) {
    this.myRank = myRank;
    this.tagsByRank = tagsByRank;
  }

  /** A builder for the tags of rank {@code myRank}. */
  public static Builder builder(int myRank) {
    return new Builder(myRank);
  }

  /**
   * The tag of the channel between {@code (myGid, myElement)} on this rank and {@code (otherGid,
   * otherElement)} on {@code otherRank}, in either direction; {@link #NO_TAG} when {@code
   * otherRank} is this rank.
   *
   * @throws IllegalArgumentException when that pair was never added
   */
  public int tag(int myGid, int myElement, int otherRank, int otherGid, int otherElement) {
    if (otherRank == myRank) {
      return NO_TAG;
    }
    ElementPair pair = ElementPair.of(new BlockElement(myGid, myElement),
        new BlockElement(otherGid, otherElement));
    Map<ElementPair, Integer> tags = tagsByRank.get(otherRank);
    Integer tag = tags == null ? null : tags.get(pair);
    if (tag == null) {
      throw new IllegalArgumentException("no tag for a channel that was never added: myRank="
          + myRank + ", otherRank=" + otherRank + ", myGid=" + myGid + ", myElement=" + myElement
          + ", otherGid=" + otherGid + ", otherElement=" + otherElement);
    }
    return tag;
  }

  /** Number of tags used with {@code otherRank} (0 when none, and for this rank). */
  public int tagCount(int otherRank) {
    Map<ElementPair, Integer> tags = tagsByRank.get(otherRank);
    return tags == null ? 0 : tags.size();
  }

  /** The other ranks this rank has channels with, ascending. */
  public int[] peers() {
    int[] peers = new int[tagsByRank.size()];
    int i = 0;
    for (int r : tagsByRank.keySet()) {
      peers[i++] = r;
    }
    Arrays.sort(peers);
    return peers;
  }

  /** The rank these tags are for. */
  public int myRank() {
    return myRank;
  }

  /**
   * Collects the channel pairs of a rank, then numbers them ({@link #build()}). Like Parthenon's
   * {@code AddMeshDataToMap} followed by {@code ResolveMap}.
   */
  public static final class Builder {
    private final int myRank;
    private final TreeMap<Integer, TreeSet<ElementPair>> pairsByRank = new TreeMap<>();

    private Builder(int myRank) {
      if (myRank < 0) {
        throw new IllegalArgumentException("myRank must be non-negative: myRank=" + myRank);
      }
      this.myRank = myRank;
    }

    /**
     * Adds the shared boundary between element {@code myElement} of block {@code myGid} (on this
     * rank) and element {@code otherElement} of block {@code otherGid} on {@code otherRank}.
     * Adding a pair again, from either side, changes nothing; same-rank entries are ignored.
     */
    public Builder add(int myGid, int myElement, int otherRank, int otherGid, int otherElement) {
      if (otherRank < 0) {
        throw new IllegalArgumentException("otherRank must be non-negative: otherRank="
            + otherRank);
      }
      ElementPair pair = ElementPair.of(new BlockElement(myGid, myElement),
          new BlockElement(otherGid, otherElement));
      if (otherRank != myRank) {
        pairsByRank.computeIfAbsent(otherRank, r -> new TreeSet<>()).add(pair);
      }
      return this;
    }

    /**
     * Numbers each rank's pairs densely in sorted order.
     *
     * @throws TagLimitException when a pair of ranks would need more than {@link
     *     #MAX_TAGS_PER_RANK_PAIR} tags
     */
    public TagMap build() {
      Map<Integer, Map<ElementPair, Integer>> tagsByRank = new HashMap<>();
      for (Map.Entry<Integer, TreeSet<ElementPair>> e : pairsByRank.entrySet()) {
        TreeSet<ElementPair> pairs = e.getValue();
        if (pairs.size() > MAX_TAGS_PER_RANK_PAIR) {
          throw new TagLimitException(myRank, e.getKey(), pairs.size());
        }
        Map<ElementPair, Integer> tags = new HashMap<>(pairs.size() * 2);
        int next = 0;
        for (ElementPair pair : pairs) {
          tags.put(pair, next++);
        }
        tagsByRank.put(e.getKey(), tags);
      }
      return new TagMap(myRank, tagsByRank);
    }
  }
}
