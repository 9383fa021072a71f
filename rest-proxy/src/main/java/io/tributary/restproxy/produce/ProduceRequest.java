package io.tributary.restproxy.produce;

import java.util.List;

/** A v2 produce request body: {@code {"records": [...]}}. */
public record ProduceRequest(List<ProduceRecord> records) {
}
