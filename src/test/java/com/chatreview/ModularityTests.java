package com.chatreview;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/** Keeps the module graph honest: no cycles, no reaching into another module's internals. */
class ModularityTests {

    private final ApplicationModules modules = ApplicationModules.of(ChatReviewApplication.class);

    @Test
    void modulesOnlyUseEachOthersApis() {
        modules.verify();
    }

    /**
     * The graph of docs/architecture.md, for the modules it promises something of: the lower ones know no feature
     * module, the kernel, the grading engine and the sentence model know nothing at all, the assistant knows only the
     * grading engine and the sentence model, and privacy knows no module holding a user's data.
     */
    @Test
    void theLowerModulesKnowOnlyWhatTheArchitectureSays() {
        Map<String, List<String>> allowed = Map.of(
                "kernel", List.of(),
                "grading", List.of(),
                "meaning", List.of(),
                "assistant", List.of("grading", "meaning"),
                "database", List.of("kernel"),
                "outbound", List.of("kernel"),
                "web", List.of("database", "kernel"),
                "ratelimit", List.of("kernel", "redis", "web"),
                "tenancy", List.of("database", "kernel", "ratelimit", "redis", "web"),
                // the modules holding a user's data know privacy (they export it), not the other way round
                "privacy", List.of("database", "kernel", "tenancy"));
        allowed.forEach((module, dependencies) -> assertThat(dependenciesOf(module))
                .as("the modules %s depends on", module)
                .isSubsetOf(dependencies));
    }

    private List<String> dependenciesOf(String module) {
        ApplicationModule found = modules.getModuleByName(module).orElseThrow();
        return found.getDirectDependencies(modules)
                .uniqueModules()
                .map(dependency -> dependency.getIdentifier().toString())
                .toList();
    }

    /**
     * The module diagram docs/architecture.md shows is the one the build draws from the code: written to
     * {@code target/spring-modulith-docs/}, and copied to {@code docs/modules.puml} when it differs (the test fails
     * then, so that a change of the graph is seen and committed).
     */
    @Test
    void theCommittedModuleDiagramIsTheOneTheCodeDraws() throws IOException {
        Documenter documenter = new Documenter(modules);
        documenter.writeModulesAsPlantUml().writeIndividualModulesAsPlantUml();
        Path drawn = Path.of("target", "spring-modulith-docs", "components.puml");
        Path committed = Path.of("docs", "modules.puml");
        // the Documenter lists the modules in no fixed order: the same lines are the same diagram
        List<String> now = Files.readAllLines(drawn).stream().sorted().toList();
        List<String> before = Files.exists(committed)
                ? Files.readAllLines(committed).stream().sorted().toList()
                : List.of();
        if (!now.equals(before)) {
            Files.copy(drawn, committed, StandardCopyOption.REPLACE_EXISTING);
        }
        assertThat(now)
                .as("docs/modules.puml is the graph the code draws (it has just been rewritten: commit it)")
                .isEqualTo(before);
    }

    /** docs/architecture.md has a row for every module and every table the migrations create. */
    @Test
    void theArchitectureNamesEveryModuleAndEveryTable() throws IOException {
        String architecture = Files.readString(Path.of("docs", "architecture.md"));
        List<String> moduleNames = modules.stream()
                .map(module -> module.getIdentifier().toString())
                .toList();
        assertThat(moduleNames)
                .isNotEmpty()
                .allSatisfy(module -> assertThat(architecture)
                        .as("docs/architecture.md has a row for the module")
                        .contains("\n| `" + module + "` |"));
        assertThat(tablesTheMigrationsCreate())
                .hasSizeGreaterThan(30)
                .allSatisfy(table -> assertThat(architecture)
                        .as("docs/architecture.md has a row for the table")
                        .contains("\n| `" + table + "` |"));
    }

    private static List<String> tablesTheMigrationsCreate() throws IOException {
        Pattern create = Pattern.compile("(?i)CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)");
        try (Stream<Path> migrations = Files.list(Path.of("src", "main", "resources", "db", "migration"))) {
            return migrations
                    .filter(file -> file.toString().endsWith(".sql"))
                    .flatMap(file -> {
                        try {
                            return create.matcher(Files.readString(file))
                                    .results()
                                    .map(found -> found.group(1));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .distinct()
                    .sorted()
                    .toList();
        }
    }
}
