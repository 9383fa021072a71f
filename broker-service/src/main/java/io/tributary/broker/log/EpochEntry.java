package io.tributary.broker.log;

/**
 * The first offset written in a leader epoch.
 *
 * @param epoch       leader epoch
 * @param startOffset first offset of that epoch
 */
public record EpochEntry(int epoch, long startOffset) {
}
