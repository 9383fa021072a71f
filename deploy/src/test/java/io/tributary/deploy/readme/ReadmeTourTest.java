package io.tributary.deploy.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.deploy.Repository;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the README's tour is read ({@link ReadmeTour}) and its outputs compared ({@link OutputPattern}), and
 * that the README's own tour is well formed: it starts the platform first, stops it last, and every step
 * in between has a command. {@code ReadmeTourIT} runs it.
 */
class ReadmeTourTest {

    @Test
    void theReadmesTourStartsThePlatformRunsCommandsAndStopsIt() throws Exception {
        List<ReadmeTour.Step> steps = ReadmeTour.parse(Files.readString(Repository.path("README.md"))).steps();

        assertThat(steps).hasSizeGreaterThan(2);
        assertThat(steps.get(0).has(ReadmeTour.Option.START)).isTrue();
        assertThat(steps.get(0).command()).endsWith("bin/quickstart");
        assertThat(steps.get(0).output()).anyMatch(line -> line.contains("Tributary is ready."));
        assertThat(steps.get(steps.size() - 1).has(ReadmeTour.Option.STOP)).isTrue();
        assertThat(steps.subList(1, steps.size() - 1)).allSatisfy(step -> {
            assertThat(step.command()).as("%s", step).isNotBlank();
            assertThat(step.options()).as("%s", step).doesNotContain(ReadmeTour.Option.START, ReadmeTour.Option.STOP);
        });
    }

    @Test
    void aMarkedShellBlockIsAStepAndTheTextBlockAfterItIsItsOutput() {
        String markdown = """
            Some prose.

            <!-- tour: retry, any order -->
            ```sh
            echo one
            echo two
            ```

            ```text
            two
            one
            ```

            ```sh
            echo not a step
            ```

            <!-- tour -->
            ```sh
            touch quiet
            ```

            Prose between: the next block is not this step's output.

            ```text
            ignored
            ```
            """;

        List<ReadmeTour.Step> steps = ReadmeTour.parse(markdown).steps();

        assertThat(steps).hasSize(2);
        assertThat(steps.get(0).command()).isEqualTo("echo one\necho two");
        assertThat(steps.get(0).output()).containsExactly("two", "one");
        assertThat(steps.get(0).options()).containsExactlyInAnyOrder(ReadmeTour.Option.RETRY, ReadmeTour.Option.ANY_ORDER);
        assertThat(steps.get(0).line()).isEqualTo(3);
        assertThat(steps.get(1).command()).isEqualTo("touch quiet");
        assertThat(steps.get(1).output()).isEmpty();
        assertThat(steps.get(1).options()).isEmpty();
    }

    @Test
    void anUnknownOptionOrAMarkerWithoutAShellBlockIsRefusedNamingTheLine() {
        assertThatThrownBy(() -> ReadmeTour.parse("<!-- tour: sometimes -->\n```sh\nls\n```\n"))
            .hasMessageContaining("line 1").hasMessageContaining("sometimes");
        assertThatThrownBy(() -> ReadmeTour.parse("text\n<!-- tour -->\n```text\nls\n```\n"))
            .hasMessageContaining("line 2").hasMessageContaining("```sh");
    }

    @Test
    void anEllipsisStandsForAnyTextAndBlankRunsForAnyBlanks() {
        List<String> documented = List.of("", "Topic: clicks  TopicId: …  PartitionCount: 3", "  id console-consumer-…  2", "");

        assertThat(OutputPattern.matches(documented,
            "Topic: clicks\tTopicId: iycYvbd8R0q2K3K5OWWRBw\tPartitionCount: 3\t\nid  console-consumer-1cfc  2   \n", false))
            .isTrue();
        assertThat(OutputPattern.matches(documented, "Topic: clicks TopicId: x PartitionCount: 4\nid console-consumer-1 2\n",
            false)).isFalse();
        // Every line counts: none missing, none more.
        assertThat(OutputPattern.matches(documented, "Topic: clicks TopicId: x PartitionCount: 3\n", false)).isFalse();
        assertThat(OutputPattern.matches(documented,
            "Topic: clicks TopicId: x PartitionCount: 3\nid console-consumer-1 2\nmore\n", false)).isFalse();
        // Text around the documented text is not the documented line.
        assertThat(OutputPattern.matches(List.of("Created topic clicks."), "WARN Created topic clicks.", false)).isFalse();
        assertThat(OutputPattern.matches(List.of(), "\n\n", false)).isTrue();
        assertThat(OutputPattern.matches(List.of(), "something\n", false)).isFalse();
    }

    @Test
    void inAnyOrderEachDocumentedLineMatchesADifferentLine() {
        List<String> documented = List.of("member-… 2", "member-… 1");

        assertThat(OutputPattern.matches(documented, "member-b 1\nmember-a 2\n", true)).isTrue();
        assertThat(OutputPattern.matches(documented, "member-b 1\nmember-a 2\n", false)).isFalse();
        assertThat(OutputPattern.matches(documented, "member-b 2\nmember-a 2\n", true)).isFalse();
        // A line that two documented lines could take goes to the one that leaves the other a match.
        assertThat(OutputPattern.matches(List.of("a …", "a b"), "a b\na c\n", true)).isTrue();
    }
}
