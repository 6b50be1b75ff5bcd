package com.chatreview;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
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

    @Test
    void writesTheModuleDiagram() {
        new Documenter(modules).writeModulesAsPlantUml().writeIndividualModulesAsPlantUml();
    }
}
