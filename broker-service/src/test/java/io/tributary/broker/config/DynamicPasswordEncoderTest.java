package io.tributary.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Passwords of dynamic broker configs encrypted for ZooKeeper in Kafka's stored format. */
class DynamicPasswordEncoderTest {

    /**
     * "keystore-p4ss" as Kafka 3.9's EncryptingPasswordEncoder (kafka-server-common 3.9.1) stored it
     * with password.encoder.secret=broker-secret and its defaults.
     */
    private static final String STORED_BY_KAFKA = "initializationVector:FcrjSQb5bzQprC7doqBq8Q==,keyLength:128,salt:lbsi9j7uWhMXE30Rpi8qxlySmutDoSZq88N0VpgW6ns7CpmxwNvGEsaWrgACBWs6xXKhXlvE8eXOkScXub8Nko7PBgBEAZwNGyllz4OjUDd1YPCfG/TXlAuidjdTCvc2i1/a1UUaKe0/g8lNidvY4wXw9DyGYXvnGTPSGZ0qyf603aG0JlFayO3tq31cym/kFjgIar3GDTvmKsl7XZlg25X12y91t7krf8y7x66J2jQzgBlOVY/ksbFG/TpcOIAwD25110d8RWjBOBE9p6HFi7SzVGVVJogFWBXs0r+unkNnfZFb2CH3RTxas1S7xBf+/YcZ16T+tzbkd3OTBtreyA==,keyFactoryAlgorithm:PBKDF2WithHmacSHA512,cipherAlgorithm:AES/CBC/PKCS5Padding,iterations:4096,passwordLength:13,encryptedPassword:lHKHZ3rKN3o8sv9ND34dgg==";

    @Test
    void readsWhatKafkaStored() {
        assertThat(new DynamicPasswordEncoder("broker-secret").decode(STORED_BY_KAFKA)).isEqualTo("keystore-p4ss");
    }

    @Test
    void encodesWithASaltSoEqualPasswordsDifferAndDecodesThemBack() {
        DynamicPasswordEncoder encoder = new DynamicPasswordEncoder("broker-secret");
        String first = encoder.encode("keystore-p4ss");
        String second = encoder.encode("keystore-p4ss");
        assertThat(first).isNotEqualTo(second).doesNotContain("keystore-p4ss")
            .contains("keyFactoryAlgorithm:PBKDF2WithHmacSHA512", "cipherAlgorithm:AES/CBC/PKCS5Padding",
                "keyLength:128", "iterations:4096", "passwordLength:13", "initializationVector:", "salt:",
                "encryptedPassword:");
        assertThat(encoder.decode(first)).isEqualTo("keystore-p4ss");
        assertThat(encoder.decode(second)).isEqualTo("keystore-p4ss");
        assertThat(encoder.decode(encoder.encode("ünïcode, with: separators"))).isEqualTo("ünïcode, with: separators");
    }

    @Test
    void anotherSecretOrAPlainValueDoesNotDecode() {
        assertThatThrownBy(() -> new DynamicPasswordEncoder("other-secret").decode(STORED_BY_KAFKA))
            .isInstanceOf(ConfigException.class).hasMessageContaining("Password could not be decoded");
        assertThatThrownBy(() -> new DynamicPasswordEncoder("broker-secret").decode("keystore-p4ss"))
            .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> new DynamicPasswordEncoder("")).isInstanceOf(IllegalArgumentException.class);
    }
}
