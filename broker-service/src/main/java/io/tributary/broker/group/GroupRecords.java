package io.tributary.broker.group;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * Keys and values of the records in {@code __consumer_offsets}, in Kafka's layouts, so the
 * topic reads like Kafka's. All big-endian; a string is an int16 length then UTF-8 (-1 for
 * null), bytes an int32 length then the bytes.
 * <pre>
 * OffsetCommitKey   (key version 1):   group string, topic string, partition int32
 * GroupMetadataKey  (key version 2):   group string
 * OffsetCommitValue (value version 3): offset int64, leader_epoch int32, metadata string, commit_timestamp int64
 *                   (version 1, written for a commit with its own retention: offset int64, metadata string,
 *                   commit_timestamp int64, expire_timestamp int64; versions 0 and 2 are read too)
 * GroupMetadataValue (value version 3): protocol_type string, generation int32, protocol string?, leader string?,
 *                   current_state_timestamp int64, members [member_id string, group_instance_id string?,
 *                   client_id string, client_host string, rebalance_timeout int32, session_timeout int32,
 *                   subscription bytes, assignment bytes]
 * </pre>
 * A record with a null value (tombstone) deletes the key: an offset, or a whole group.
 */
final class GroupRecords {

    private static final short OFFSET_KEY_VERSION = 1;
    private static final short GROUP_KEY_VERSION = 2;
    private static final short OFFSET_VALUE_VERSION = 3;
    private static final short OFFSET_VALUE_VERSION_WITH_EXPIRY = 1;
    private static final short GROUP_VALUE_VERSION = 3;

    private GroupRecords() {
    }

    /** A decoded key. */
    sealed interface Key permits OffsetKey, GroupKey {
        String group();
    }

    /** The key of a committed offset. */
    record OffsetKey(String group, TopicPartition tp) implements Key {
    }

    /** The key of a group's metadata. */
    record GroupKey(String group) implements Key {
    }

    /** A member as stored in the group's metadata. */
    record StoredMember(String memberId, String groupInstanceId, String clientId, String clientHost, int rebalanceTimeoutMs,
                        int sessionTimeoutMs, byte[] subscription, byte[] assignment) {
    }

    /** A group's metadata as stored. */
    record StoredGroup(String protocolType, int generation, String protocol, String leader, long currentStateTimestamp,
                       List<StoredMember> members) {
    }

    static byte[] offsetKey(String group, TopicPartition tp) {
        Writer w = new Writer();
        w.int16(OFFSET_KEY_VERSION).string(group).string(tp.topic()).int32(tp.partition());
        return w.bytes();
    }

    static byte[] groupKey(String group) {
        return new Writer().int16(GROUP_KEY_VERSION).string(group).bytes();
    }

    static byte[] offsetValue(OffsetAndMetadata offset) {
        if (offset.hasExpireTimestamp()) {
            // Only version 1 has an expire timestamp (and no leader epoch), as Kafka writes it.
            return new Writer().int16(OFFSET_VALUE_VERSION_WITH_EXPIRY).int64(offset.offset()).string(offset.metadata())
                .int64(offset.commitTimestamp()).int64(offset.expireTimestamp()).bytes();
        }
        return new Writer().int16(OFFSET_VALUE_VERSION).int64(offset.offset()).int32(offset.leaderEpoch())
            .string(offset.metadata()).int64(offset.commitTimestamp()).bytes();
    }

    static byte[] groupValue(StoredGroup group) {
        Writer w = new Writer().int16(GROUP_VALUE_VERSION).string(group.protocolType() == null ? "" : group.protocolType())
            .int32(group.generation()).string(group.protocol()).string(group.leader()).int64(group.currentStateTimestamp())
            .int32(group.members().size());
        for (StoredMember m : group.members()) {
            w.string(m.memberId()).string(m.groupInstanceId()).string(m.clientId()).string(m.clientHost())
                .int32(m.rebalanceTimeoutMs()).int32(m.sessionTimeoutMs()).bytesField(m.subscription())
                .bytesField(m.assignment());
        }
        return w.bytes();
    }

    /**
     * Decodes a key.
     *
     * @throws IllegalArgumentException for an unknown key version or malformed bytes
     */
    static Key readKey(ByteBuffer key) {
        ByteBuffer b = key.duplicate();
        short version = b.getShort();
        if (version == 0 || version == 1) {
            String group = string(b);
            String topic = string(b);
            return new OffsetKey(group, new TopicPartition(topic, b.getInt()));
        }
        if (version == 2) {
            return new GroupKey(string(b));
        }
        throw new IllegalArgumentException("Unknown __consumer_offsets key version " + version);
    }

    /** Decodes an offset value, versions 0 to 3. */
    static OffsetAndMetadata readOffsetValue(ByteBuffer value) {
        ByteBuffer b = value.duplicate();
        short version = b.getShort();
        if (version < 0 || version > 3) {
            throw new IllegalArgumentException("Unknown offset value version " + version);
        }
        long offset = b.getLong();
        int leaderEpoch = -1;
        if (version >= 3) {
            leaderEpoch = b.getInt();
        }
        String metadata = string(b);
        long commitTimestamp = b.getLong();
        long expireTimestamp = version == 1 ? b.getLong() : OffsetAndMetadata.NO_EXPIRE_TIMESTAMP;
        return new OffsetAndMetadata(offset, leaderEpoch, metadata, commitTimestamp, expireTimestamp);
    }

    /** Decodes a group metadata value, version 3 (earlier versions lack fields this broker needs and are not written). */
    static StoredGroup readGroupValue(ByteBuffer value) {
        ByteBuffer b = value.duplicate();
        short version = b.getShort();
        if (version != GROUP_VALUE_VERSION) {
            throw new IllegalArgumentException("Unsupported group metadata value version " + version);
        }
        String protocolType = string(b);
        int generation = b.getInt();
        String protocol = string(b);
        String leader = string(b);
        long timestamp = b.getLong();
        int count = b.getInt();
        List<StoredMember> members = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            members.add(new StoredMember(string(b), string(b), string(b), string(b), b.getInt(), b.getInt(), bytes(b), bytes(b)));
        }
        return new StoredGroup(protocolType, generation, protocol, leader, timestamp, members);
    }

    private static String string(ByteBuffer b) {
        short length = b.getShort();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer b) {
        int length = b.getInt();
        if (length < 0) {
            return new byte[0];
        }
        byte[] bytes = new byte[length];
        b.get(bytes);
        return bytes;
    }

    /** Appends fields to a growing buffer. */
    private static final class Writer {
        private ByteBuffer buffer = ByteBuffer.allocate(256);

        private void ensure(int n) {
            if (buffer.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + n));
                buffer.flip();
                bigger.put(buffer);
                buffer = bigger;
            }
        }

        Writer int16(short v) {
            ensure(2);
            buffer.putShort(v);
            return this;
        }

        Writer int32(int v) {
            ensure(4);
            buffer.putInt(v);
            return this;
        }

        Writer int64(long v) {
            ensure(8);
            buffer.putLong(v);
            return this;
        }

        Writer string(String s) {
            if (s == null) {
                return int16((short) -1);
            }
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            if (bytes.length > Short.MAX_VALUE) {
                throw new IllegalArgumentException("String of " + bytes.length + " bytes is too long for a record field");
            }
            int16((short) bytes.length);
            ensure(bytes.length);
            buffer.put(bytes);
            return this;
        }

        Writer bytesField(byte[] bytes) {
            byte[] b = bytes == null ? new byte[0] : bytes;
            int32(b.length);
            ensure(b.length);
            buffer.put(b);
            return this;
        }

        byte[] bytes() {
            byte[] out = new byte[buffer.position()];
            buffer.flip();
            buffer.get(out);
            return out;
        }
    }
}
