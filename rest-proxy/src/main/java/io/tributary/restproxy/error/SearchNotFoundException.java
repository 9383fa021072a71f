package io.tributary.restproxy.error;

/**
 * No search of that id for that topic and caller on this proxy: never started here, or forgotten
 * since it finished.
 */
public final class SearchNotFoundException extends RestException {

    public SearchNotFoundException(String searchId) {
        super("Search " + searchId + " not found.");
    }
}
