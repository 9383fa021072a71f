package io.tributary.broker.share;

import java.util.List;

/**
 * One acknowledgement batch of a ShareFetch or ShareAcknowledge request (KIP-932).
 *
 * @param firstOffset      first offset acknowledged, inclusive
 * @param lastOffset       last offset acknowledged, inclusive
 * @param acknowledgeTypes one type for the whole range, or one per offset: {@link #GAP} (0),
 *                         {@link #ACCEPT} (1), {@link #RELEASE} (2), {@link #REJECT} (3), {@link #RENEW}
 *                         (4, KIP-1222: keeps the records acquired and restarts their lock)
 */
public record ShareAcknowledgement(long firstOffset, long lastOffset, List<Byte> acknowledgeTypes) {

    public static final byte GAP = 0;
    public static final byte ACCEPT = 1;
    public static final byte RELEASE = 2;
    public static final byte REJECT = 3;
    public static final byte RENEW = 4;

    public ShareAcknowledgement {
        acknowledgeTypes = List.copyOf(acknowledgeTypes);
    }

    /** A batch acknowledged with one type. */
    public static ShareAcknowledgement of(long firstOffset, long lastOffset, byte type) {
        return new ShareAcknowledgement(firstOffset, lastOffset, List.of(type));
    }

    /**
     * Whether the batch is well formed: {@code firstOffset <= lastOffset}, one type or one per offset,
     * each a known type ({@link #RENEW} only when {@code renewAllowed}).
     */
    public boolean isValid(boolean renewAllowed) {
        if (firstOffset < 0 || lastOffset < firstOffset || acknowledgeTypes.isEmpty()) {
            return false;
        }
        if (acknowledgeTypes.size() != 1 && acknowledgeTypes.size() != lastOffset - firstOffset + 1) {
            return false;
        }
        for (byte type : acknowledgeTypes) {
            if (type < GAP || type > (renewAllowed ? RENEW : REJECT)) {
                return false;
            }
        }
        return true;
    }

    /** This batch's runs of one type, by offset: {first offset, last offset, type}. */
    public List<long[]> runs() {
        List<long[]> runs = new java.util.ArrayList<>();
        long runStart = firstOffset;
        while (runStart <= lastOffset) {
            byte type = typeOf(runStart);
            long runEnd = runStart;
            while (runEnd < lastOffset && typeOf(runEnd + 1) == type) {
                runEnd++;
            }
            runs.add(new long[]{runStart, runEnd, type});
            runStart = runEnd + 1;
        }
        return runs;
    }

    /** The type acknowledging {@code offset} (within the batch). */
    public byte typeOf(long offset) {
        return acknowledgeTypes.size() == 1 ? acknowledgeTypes.get(0) : acknowledgeTypes.get((int) (offset - firstOffset));
    }
}
