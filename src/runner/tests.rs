//! Unit tests of the key comparison, the INI reader and the build-file detector.

use super::build::{Build, file_hits, weakening_lines};
use super::*;

fn weakened(build: Build, old: &str, new: &str) -> Vec<(u32, String)> {
    weakening_lines(build, old, new)
        .into_iter()
        .map(|(line, _, text)| (line, text))
        .collect()
}

const POM: &str = "<project>\n<build><plugins>\n<plugin>\n<artifactId>maven-surefire-plugin</artifactId>\n<configuration>\n</configuration>\n</plugin>\n</plugins></build>\n<dependencies><dependency><exclusions><exclusion><exclude>x</exclude></exclusion></exclusions></dependency></dependencies>\n</project>\n";

#[test]
fn maven_skip_and_surefire_excludes_are_found_with_lines() {
    let new = POM.replace(
        "<configuration>\n",
        "<configuration>\n<skipTests>true</skipTests>\n<excludes>\n<exclude>**/RateTest.java</exclude>\n</excludes>\n<testFailureIgnore>true</testFailureIgnore>\n",
    );
    assert_eq!(
        weakened(Build::Maven, POM, &new),
        vec![
            (6, "<skipTests>true</skipTests>".to_string()),
            (8, "<exclude>**/RateTest.java</exclude>".to_string()),
            (
                10,
                "<testFailureIgnore>true</testFailureIgnore>".to_string()
            ),
        ]
    );
}

#[test]
fn maven_version_bumps_false_values_comments_and_other_excludes_are_not_findings() {
    let new = POM
        .replace("<project>", "<project><version>1.2.4</version>")
        .replace(
            "<configuration>\n",
            "<configuration>\n<skipTests>false</skipTests>\n<!-- <skipTests>true</skipTests> -->\n",
        );
    assert!(weakened(Build::Maven, POM, &new).is_empty());
    let new = POM.replace(
        "</project>",
        "<properties><maven.test.skip>true</maven.test.skip></properties>\n</project>",
    );
    assert_eq!(weakened(Build::Maven, POM, &new).len(), 1);
}

const GRADLE: &str = "plugins { id 'java' }\ndependencies {\n  implementation('a:b:1.0') { exclude group: 'x' }\n}\ntest {\n  useJUnitPlatform()\n}\n";

#[test]
fn gradle_test_excludes_filters_and_disabling_are_found() {
    let new = GRADLE.replace(
        "  useJUnitPlatform()\n",
        "  useJUnitPlatform()\n  exclude '**/RateTest.class'\n  filter { excludeTestsMatching '*Rate*' }\n  ignoreFailures = true\n",
    );
    let found = weakened(Build::Gradle, GRADLE, &new);
    assert_eq!(
        found.iter().map(|(l, _)| *l).collect::<Vec<_>>(),
        vec![7, 8, 9],
        "{found:?}"
    );
    let kts = "tasks.named<Test>(\"test\") {\n    useJUnitPlatform()\n}\n";
    let new = kts.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n    enabled = false\n",
    );
    assert_eq!(weakened(Build::Gradle, kts, &new).len(), 1);
    assert_eq!(
        weakened(Build::Gradle, "", "tasks.test.enabled = false\n").len(),
        1
    );
    let new = GRADLE.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n  onlyIf { false }\n",
    );
    assert_eq!(weakened(Build::Gradle, GRADLE, &new).len(), 1);
    let new = GRADLE.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n  ignoreFailures = false\n",
    );
    assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
}

#[test]
fn gradle_dependency_bumps_and_dependency_excludes_are_not_findings() {
    let new = GRADLE.replace("a:b:1.0", "a:b:1.1").replace(
        "}\ntest",
        "  implementation('c:d:2') { exclude module: 'y' }\n}\ntest",
    );
    assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
    // A collection's `.filter { }` inside a test block is not the test filter.
    let new = GRADLE.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n  jvmArgs = allJvmArgs.filter { !it.startsWith(\"--add-opens\") }\n",
    );
    assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
    // A comment is not code.
    let new = GRADLE.replace(
        "useJUnitPlatform()\n",
        "useJUnitPlatform()\n  // exclude '**/X'\n",
    );
    assert!(weakened(Build::Gradle, GRADLE, &new).is_empty());
}

/// A test project's file (xUnit), with `props` as its first `<PropertyGroup>`'s body.
fn csproj(props: &str) -> String {
    format!(
        "\u{feff}<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n{props}    <IsPackable>false</IsPackable>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include=\"Microsoft.NET.Test.Sdk\" Version=\"17.11.0\" />\n    <PackageReference Include=\"xunit\" Version=\"2.9.0\" />\n  </ItemGroup>\n</Project>\n"
    )
}

/// The MSBuild findings (line, text) a change to `path` makes, with what each says.
fn msbuild(path: &str, old: &str, new: &str) -> Vec<(u32, String, String)> {
    file_hits(Build::DotNet, path.as_bytes(), path.as_bytes(), old, new)
}

const TESTS_CSPROJ: &str = "src/Invoice.Tests/Invoice.Tests.csproj";

#[test]
fn msbuild_test_projects_on_fewer_frameworks_are_found_with_lines() {
    // A list that shrinks (FluentValidation b81bb537e763's shape).
    let old = csproj("    <TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>\n");
    let new = csproj("    <TargetFrameworks>net8.0</TargetFrameworks>\n");
    assert_eq!(
        msbuild(TESTS_CSPROJ, &old, &new),
        vec![(
            3,
            "targets fewer frameworks (net6.0;net7.0;net8.0 → net8.0)".to_string(),
            "<TargetFrameworks>net8.0</TargetFrameworks>".to_string()
        )]
    );
    // A list that becomes one `TargetFramework` (0f215b685a71's shape).
    let old = csproj("    <TargetFrameworks>netcoreapp3.1;net5.0;net6.0</TargetFrameworks>\n");
    let new = csproj("    <TargetFramework>net6.0</TargetFramework>\n");
    let found = msbuild(TESTS_CSPROJ, &old, &new);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, 3);
    // One framework dropped, others bumped: fewer is fewer.
    let old = csproj("    <TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>\n");
    let new = csproj("    <TargetFrameworks>net8.0;net9.0</TargetFrameworks>\n");
    assert_eq!(msbuild(TESTS_CSPROJ, &old, &new).len(), 1);
    // A `TargetFramework` added beside the list wins over it (the SDK builds one).
    let new = csproj(
        "    <TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>\n    <TargetFramework>net8.0</TargetFramework>\n",
    );
    assert_eq!(msbuild(TESTS_CSPROJ, &old, &new)[0].0, 4);
}

#[test]
fn msbuild_frameworks_under_conditions_are_compared_per_condition() {
    let windows = "Condition=\"$([MSBuild]::IsOSPlatform('Windows'))\"";
    // An appended framework dropped from the Windows list (Polly 8efa8db7's shape).
    let old = csproj(&format!(
        "    <TargetFrameworks>net8.0;net9.0</TargetFrameworks>\n    <TargetFrameworks {windows}>$(TargetFrameworks);net462;net472</TargetFrameworks>\n"
    ));
    let new = old.replace(";net462;net472", ";net472");
    let found = msbuild(TESTS_CSPROJ, &old, &new);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, 4);
    assert!(
        found[0]
            .1
            .contains("net8.0;net9.0;net462;net472 → net8.0;net9.0;net472")
    );
    // Frameworks kept only under a new condition: fewer where it does not hold.
    let old = csproj("    <TargetFrameworks>net8.0;net472</TargetFrameworks>\n");
    let new = csproj(&format!(
        "    <TargetFrameworks>net8.0</TargetFrameworks>\n    <TargetFrameworks {windows}>$(TargetFrameworks);net472</TargetFrameworks>\n"
    ));
    let found = msbuild(TESTS_CSPROJ, &old, &new);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, 3);
    assert!(
        found[0]
            .1
            .starts_with("targets fewer frameworks where no condition holds"),
        "{found:?}"
    );
    // The same through a `<PropertyGroup Condition>` and an in-file property.
    let old = "<Project>\n<PropertyGroup><TestTfms>net8.0;net472</TestTfms></PropertyGroup>\n<PropertyGroup><TargetFrameworks>$(TestTfms)</TargetFrameworks></PropertyGroup>\n<ItemGroup><PackageReference Include=\"NUnit\" /><PackageReference Include=\"NUnit3TestAdapter\" /></ItemGroup>\n</Project>\n";
    let new = old.replace(
        "<PropertyGroup><TestTfms>net8.0;net472</TestTfms></PropertyGroup>",
        "<PropertyGroup><TestTfms>net8.0</TestTfms></PropertyGroup>\n<PropertyGroup Condition=\"'$(OS)' == 'Windows_NT'\"><TestTfms>net8.0;net472</TestTfms></PropertyGroup>",
    );
    assert_eq!(msbuild("tests/Unit.csproj", old, &new).len(), 1);
}

#[test]
fn msbuild_bumps_reorders_additions_and_unknown_lists_are_not_findings() {
    let old = csproj("    <TargetFrameworks>net6.0;net7.0</TargetFrameworks>\n");
    for new in [
        // A bump of the same count, a reorder, one more framework, a comment.
        "    <TargetFrameworks>net8.0;net9.0</TargetFrameworks>\n",
        "    <TargetFrameworks>net7.0;net6.0</TargetFrameworks>\n",
        "    <TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>\n",
        "    <TargetFrameworks>net6.0;net7.0</TargetFrameworks> <!-- <TargetFramework>net8.0</TargetFramework> -->\n",
        // A list moved to a property set elsewhere (Directory.Build.props): not countable.
        "    <TargetFrameworks>$(TestTargetFrameworks)</TargetFrameworks>\n",
        // No framework left in the file: it comes from elsewhere now.
        "",
    ] {
        assert!(
            msbuild(TESTS_CSPROJ, &old, &csproj(new)).is_empty(),
            "{new}"
        );
    }
    // A platform list that moves from a condition to another framework, same count.
    let windows = "Condition=\"$([MSBuild]::IsOSPlatform('Windows'))\"";
    let old = csproj(&format!(
        "    <TargetFrameworks>net8.0</TargetFrameworks>\n    <TargetFrameworks {windows}>$(TargetFrameworks);net472</TargetFrameworks>\n"
    ));
    assert!(msbuild(TESTS_CSPROJ, &old, &old.replace("net472", "net481")).is_empty());
    // The same lists under a reworded condition.
    let reworded = old.replace(
        "$([MSBuild]::IsOSPlatform('Windows'))",
        "'$(OS)' == 'Windows_NT'",
    );
    assert!(msbuild(TESTS_CSPROJ, &old, &reworded).is_empty());
    // Not well-formed XML: the build fails on it, nothing is judged.
    let broken = csproj("    <TargetFrameworks>net8.0</TargetFramework>\n");
    let two = csproj("    <TargetFrameworks>net6.0;net8.0</TargetFrameworks>\n");
    assert!(msbuild(TESTS_CSPROJ, &two, &broken).is_empty());
    // A library (no test package, not named as tests) may drop frameworks.
    let library = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFrameworks>net6.0;net7.0;net8.0</TargetFrameworks>\n  </PropertyGroup>\n</Project>\n";
    for path in [
        "src/Invoice/Invoice.csproj",
        "src/Invoice.Tests.Benchmarks/Invoice.Tests.Benchmarks.csproj",
        "test/Invoice.TestUtils/Invoice.TestUtils.csproj",
    ] {
        assert!(
            msbuild(path, library, &library.replace("net6.0;net7.0;", "")).is_empty(),
            "{path}"
        );
    }
    // Named as tests, it is judged without any test package in the file.
    for path in [
        "test/Invoice.Specs/Invoice.Specs.csproj",
        "Invoice.UnitTests.fsproj",
        "tests/Tests.vbproj",
    ] {
        assert_eq!(
            msbuild(path, library, &library.replace("net6.0;net7.0;", "")).len(),
            1,
            "{path}"
        );
    }
}

#[test]
fn msbuild_switches_that_stop_tests_running_or_failing_are_found() {
    let old = csproj("    <TargetFramework>net8.0</TargetFramework>\n");
    for (added, line) in [
        ("    <IsTestProject>false</IsTestProject>\n", 4),
        (
            "    <VSTestTestCaseFilter>Category!=Slow</VSTestTestCaseFilter>\n",
            4,
        ),
        (
            "    <TestingPlatformCommandLineArguments>$(TestingPlatformCommandLineArguments) --filter-not-trait \"Category=Slow\"</TestingPlatformCommandLineArguments>\n",
            4,
        ),
        (
            "    <TestingPlatformCommandLineArguments>--ignore-exit-code 2</TestingPlatformCommandLineArguments>\n",
            4,
        ),
    ] {
        let new = old.replace("    <IsPackable>", &format!("{added}    <IsPackable>"));
        let found = msbuild(TESTS_CSPROJ, &old, &new);
        assert_eq!(
            found.iter().map(|(l, _, _)| *l).collect::<Vec<_>>(),
            vec![line],
            "{added}: {found:?}"
        );
    }
    let new = old.replace(
        "  <ItemGroup>\n",
        "  <ItemGroup>\n    <Compile Remove=\"RateTests.cs\" />\n",
    );
    assert_eq!(msbuild(TESTS_CSPROJ, &old, &new).len(), 1);
    // Setting them the other way, in a comment, or in a project that is not a test
    // project, is not a finding.
    for added in [
        "    <IsTestProject>true</IsTestProject>\n",
        "    <VSTestTestCaseFilter></VSTestTestCaseFilter>\n",
        "    <TestingPlatformCommandLineArguments>--report-trx</TestingPlatformCommandLineArguments>\n",
        "    <!-- <IsTestProject>false</IsTestProject> -->\n",
        "    <VSTestNoBuild>true</VSTestNoBuild>\n",
    ] {
        let new = old.replace("    <IsPackable>", &format!("{added}    <IsPackable>"));
        assert!(msbuild(TESTS_CSPROJ, &old, &new).is_empty(), "{added}");
    }
    // A removed source that is not named as tests (a resource designer file linked
    // twice) is not a test taken out of the build.
    let new = old.replace(
        "  <ItemGroup>\n",
        "  <ItemGroup>\n    <Compile Remove=\"..\\Shared\\TestMessages.Designer.cs\" />\n",
    );
    assert!(msbuild(TESTS_CSPROJ, &old, &new).is_empty());
    // A project that only references a bare test framework (documentation snippets, a
    // helper library) is not a test project: opting it out of `dotnet test` is a fix.
    let snippets = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include=\"xunit\" />\n  </ItemGroup>\n</Project>\n";
    let new = snippets.replace(
        "  </PropertyGroup>",
        "    <IsTestProject>false</IsTestProject>\n  </PropertyGroup>",
    );
    assert!(msbuild("src/Snippets/Snippets.csproj", snippets, &new).is_empty());
    let with_adapter = snippets.replace(
        "  </ItemGroup>",
        "    <PackageReference Include=\"xunit.runner.visualstudio\" />\n  </ItemGroup>",
    );
    let new = with_adapter.replace(
        "  </PropertyGroup>",
        "    <IsTestProject>false</IsTestProject>\n  </PropertyGroup>",
    );
    assert_eq!(
        msbuild("src/Snippets/Snippets.csproj", &with_adapter, &new).len(),
        1
    );
}

#[test]
fn ini_reads_the_configparser_dialect() {
    let text = "# comment\n[tool:pytest]\nAddOpts = -q\n    --strict-markers\n\n    -p no:cacheprovider\n; more\ntestpaths: tests\n[metadata]\nname = x\n";
    let Node::Table(sections) = ini::parse(text).unwrap() else {
        panic!()
    };
    let Node::Table(pytest) = &sections["tool:pytest"] else {
        panic!()
    };
    assert_eq!(
        pytest["addopts"],
        Node::Leaf("-q\n--strict-markers\n\n-p no:cacheprovider".into())
    );
    assert_eq!(pytest["testpaths"], Node::Leaf("tests".into()));
    assert!(ini::parse("[a]\nx = 1\n[a]\n").is_err());
    assert!(ini::parse("[a]\nx = 1\nX = 2\n").is_err());
    assert!(ini::parse("x = 1\n").is_err());
    assert!(ini::parse("[a]\njust words\n").is_err());
}

#[test]
fn differences_are_named_by_their_most_specific_key() {
    let old = parse(
        b"[tool.pytest.ini_options]\naddopts = \"-q\"\n[[bin]]\nname = \"a\"\n",
        KeyFormat::Toml,
    )
    .unwrap();
    let new = parse(b"[tool.pytest.ini_options]\naddopts = \"-q --deselect x\"\n[[bin]]\nname = \"a\"\ntest = false\n", KeyFormat::Toml).unwrap();
    let mut out = Vec::new();
    for key in ["tool.pytest", "bin.test"] {
        let key = KeyPath::try_from(key.to_string()).unwrap();
        let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
        old.select(key.segments(), String::new(), &mut a);
        new.select(key.segments(), String::new(), &mut b);
        let labels: Vec<String> = a.keys().chain(b.keys()).cloned().collect();
        for l in labels {
            diff(a.get(&l).copied(), b.get(&l).copied(), &l, &mut out);
        }
    }
    assert_eq!(out, vec!["tool.pytest.ini_options.addopts", "bin[a].test"]);
}
