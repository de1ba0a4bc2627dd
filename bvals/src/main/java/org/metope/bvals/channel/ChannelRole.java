package org.metope.bvals.channel;

/**
 * The part a {@link CommBuffer} plays on this rank. A channel between blocks on two ranks has a
 * {@link #SENDER} object on one and a {@link #RECEIVER} object on the other; a channel between
 * blocks of one rank is a single {@link #LOCAL} object shared by the sending and the receiving
 * cache.
 */
public enum ChannelRole {
  /** This rank sends to another rank. */
  SENDER,
  /** This rank receives from another rank. */
  RECEIVER,
  /** Sender and receiver are on this rank and share the buffer. */
  LOCAL
}
