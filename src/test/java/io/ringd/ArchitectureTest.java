package io.ringd;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.Arrays;
import java.util.stream.Stream;

import org.springframework.web.bind.annotation.RestController;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import io.ringd.client.RingClientMetrics;

/**
 * The shape of the code (docs/architecture.md): a plain-Java ring library
 * and a Java client that ships alone with it and the wire forms both sides
 * read and write (no Spring, Micrometer optional);
 * features (lookup, membership, placement, admin, metrics, load, watch, page, warmup, follow, plan) that own their
 * requests, answers and checks and never reach into one another; shared
 * web plumbing that knows no feature, with its problem handling beneath
 * it; the service core (state, store) that
 * knows no HTTP; and no cycles between packages.
 */
@AnalyzeClasses(packages = "io.ringd", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    static final String[] FEATURES = {"io.ringd.lookup..", "io.ringd.membership..", "io.ringd.placement..",
            "io.ringd.admin..", "io.ringd.metrics..", "io.ringd.load..", "io.ringd.watch..", "io.ringd.page..",
            "io.ringd.warmup..", "io.ringd.follow..", "io.ringd.plan.."};

    /** Every package of the service, the library and the client: FEATURES, the shared ones and the root. */
    static final String[] SHARED = {"io.ringd", "io.ringd.ring..", "io.ringd.client..", "io.ringd.state..",
            "io.ringd.store..", "io.ringd.web..", "io.ringd.wire.."};

    static String[] known() {
        return Stream.concat(Arrays.stream(SHARED), Arrays.stream(FEATURES))
                .toArray(String[]::new);
    }

    @ArchTest
    static final ArchRule ringUsesNoFrameworks = noClasses()
            .that().resideInAPackage("io.ringd.ring..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "org.springframework..", "io.micrometer..", "jakarta..", "tools.jackson..", "com.fasterxml..")
            .because("the ring library must not depend on Spring, Micrometer, Jakarta or Jackson");

    @ArchTest
    static final ArchRule ringUsesOnlyTheJdk = classes()
            .that().resideInAPackage("io.ringd.ring..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.ringd.ring..", "java..")
            .because("the ring library is plain Java: it depends on the JDK alone");

    @ArchTest
    static final ArchRule clientUsesOnlyTheRingLibraryJacksonAndTheJdk = classes()
            .that().resideInAPackage("io.ringd.client..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    "io.ringd.client..", "io.ringd.ring..", "io.ringd.wire..", "java..", "tools.jackson..",
                    "com.fasterxml.jackson.annotation..", "io.micrometer..")
            .because("the Java client ships alone in target/ringd-client.jar: the ring library, Jackson and the JDK, "
                    + "no Spring and nothing of the server");

    @ArchTest
    static final ArchRule wireFormsArePlainJavaAndJackson = classes()
            .that().resideInAPackage("io.ringd.wire..")
            .should().onlyDependOnClassesThat().resideInAnyPackage(
                    "io.ringd.wire..", "io.ringd.ring..", "java..", "tools.jackson..", "com.fasterxml.jackson.annotation..")
            .because("the wire forms ship in the client jar and are read by the server alike: the ring library, "
                    + "Jackson and the JDK, no Spring, no Micrometer, nothing of the server");

    @ArchTest
    static final ArchRule clientTouchesMicrometerOnlyInItsMetrics = noClasses()
            .that().resideInAPackage("io.ringd.client..")
            .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(RingClientMetrics.class)))
            .should().dependOnClassesThat().resideInAPackage("io.micrometer..")
            .because("Micrometer is optional for the client: only RingClientMetrics, loaded when it is present, uses it");

    @ArchTest
    static final ArchRule featuresDoNotImportEachOther = slices()
            .matching("io.ringd.(lookup|membership|placement|admin|metrics|load|watch|page|warmup|follow|plan)..")
            .should().notDependOnEachOther()
            .because("a feature is changed without reading another; what two share lives in web or state");

    @ArchTest
    static final ArchRule sharedWebCodeKnowsNoFeature = noClasses()
            .that().resideInAPackage("io.ringd.web..")
            .should().dependOnClassesThat().resideInAnyPackage(FEATURES)
            .because("features declare what they need (RingApi, AdminOnly); web decides from that, not from routes");

    @ArchTest
    static final ArchRule problemHandlingNeedsNothingElseOfWeb = noClasses()
            .that().resideInAPackage("io.ringd.web.problem..")
            .should().dependOnClassesThat().resideInAPackage("io.ringd.web")
            .because("web's filters and interceptors refuse with problems; the problem types, their writer and "
                    + "the handler need nothing of them, so the two do not form a cycle");

    @ArchTest
    static final ArchRule theServiceCoreKnowsNoHttpAndNoFeature = noClasses()
            .that().resideInAnyPackage("io.ringd.state..", "io.ringd.store..")
            .should().dependOnClassesThat().resideInAnyPackage("io.ringd.web..", "org.springframework.web..",
                    "org.springframework.http..", "jakarta.servlet..")
            .orShould().dependOnClassesThat().resideInAnyPackage(FEATURES)
            .because("the ring's state and its stores are reached through HTTP, they do not speak it");

    @ArchTest
    static final ArchRule controllersArePackagePrivate = classes()
            .that().areAnnotatedWith(RestController.class)
            .should().notBePublic()
            .because("a controller is reached over HTTP, never called from another package");

    @ArchTest
    static final ArchRule everyClassIsInAPackageThisTestKnows = classes()
            .should().resideInAnyPackage(known())
            .because("docs/architecture.md and the rules above describe every package: a new one is added to both");

    @ArchTest
    static final ArchRule noCyclesBetweenPackages = slices()
            .matching("io.ringd.(*)..")
            .should().beFreeOfCycles();
}
