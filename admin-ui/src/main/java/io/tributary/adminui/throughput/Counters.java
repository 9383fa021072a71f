package io.tributary.adminui.throughput;

/** One broker's throughput counters at one scrape, summed over topics. */
public record Counters(double bytesIn, double bytesOut, double messagesIn) {
}
