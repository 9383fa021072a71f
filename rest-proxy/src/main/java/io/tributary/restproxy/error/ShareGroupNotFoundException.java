package io.tributary.restproxy.error;

/** The share group (KIP-932) does not exist, is dead, or is not a share group. */
public final class ShareGroupNotFoundException extends RestException {

    public ShareGroupNotFoundException(String group) {
        super("Share group " + group + " not found.");
    }
}
