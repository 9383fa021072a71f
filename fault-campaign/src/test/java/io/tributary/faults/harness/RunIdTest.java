package io.tributary.faults.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.RepeatedTest;

class RunIdTest {

    @RepeatedTest(50)
    void randomRunIdsFitInterfaceNamesAndTheirSubnetIsPrivate() {
        RunId run = RunId.random();

        assertThat(run.id()).matches("[a-z0-9]{5}");
        assertThat(run.subnet()).matches("10\\.2[0-4][0-9]\\.[0-9]{1,3}");
        assertThat(Integer.parseInt(run.subnet().split("\\.")[2])).isBetween(0, 255);
    }
}
