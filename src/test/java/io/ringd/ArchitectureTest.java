package io.ringd;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The ring library is plain Java: it can be embedded in a client, a
 * benchmark or another service without dragging the web stack along.
 */
@AnalyzeClasses(packages = "io.ringd", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule ringUsesNoFrameworks = noClasses()
            .that().resideInAPackage("io.ringd.ring..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "org.springframework..", "io.micrometer..", "jakarta..", "tools.jackson..", "com.fasterxml..")
            .because("the ring library must not depend on Spring, Micrometer, Jakarta or Jackson");

    @ArchTest
    static final ArchRule ringUsesOnlyTheJdkAndCommonsCodec = classes()
            .that().resideInAPackage("io.ringd.ring..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    "io.ringd.ring..", "java..", "org.apache.commons.codec..")
            .because("the ring library is plain Java plus commons-codec's MurmurHash3");
}
