package io.tributary.broker.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The broker's package slices are free of cycles (DESIGN.md section 3). A slice is a top-level
 * package under {@code io.tributary.broker} with its subpackages; the classes of the root package
 * itself ({@code BrokerServer}, {@code BrokerConfiguration}, ...) form a slice of their own, named
 * {@code root}, so a cycle through the wiring is found too.
 */
class PackageCyclesTest {

    private static final String ROOT = "io.tributary.broker";

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);
    }

    @Test
    void packageSlicesAreFreeOfCycles() {
        slices().assignedFrom(new TopLevelPackages(ROOT)).should().beFreeOfCycles().check(classes);
    }

    /** Assigns each class to its top-level package below a root; the root's own classes to {@code root}. */
    static final class TopLevelPackages implements SliceAssignment {

        private final String root;

        TopLevelPackages(String root) {
            this.root = root;
        }

        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String packageName = javaClass.getPackageName();
            if (packageName.equals(root)) {
                return SliceIdentifier.of("root");
            }
            if (!packageName.startsWith(root + ".")) {
                return SliceIdentifier.ignore();
            }
            String below = packageName.substring(root.length() + 1);
            int dot = below.indexOf('.');
            return SliceIdentifier.of(dot < 0 ? below : below.substring(0, dot));
        }

        @Override
        public String getDescription() {
            return "top-level packages of " + root + " and its root package";
        }
    }
}
