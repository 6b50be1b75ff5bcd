package com.chatreview;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/** Keeps the module graph honest: no cycles, no reaching into another module's internals. */
class ModularityTests {

    private final ApplicationModules modules = ApplicationModules.of(ChatReviewApplication.class);

    @Test
    void modulesOnlyUseEachOthersApis() {
        modules.verify();
    }

    @Test
    void writesTheModuleDiagram() {
        new Documenter(modules).writeModulesAsPlantUml().writeIndividualModulesAsPlantUml();
    }
}
