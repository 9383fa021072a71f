package io.tributary.broker.quota;

import java.util.OptionalDouble;

/** Where the quotas set on entities are looked up ({@link ClientQuotaStore}; a map in tests). Thread-safe, non-blocking. */
public interface ClientQuotaLookup {

    /** The quota of {@code key} set on exactly {@code entity}. */
    OptionalDouble quota(ClientQuotaEntity entity, String key);

    /** Whether no quota is set at all. */
    boolean isEmpty();
}
