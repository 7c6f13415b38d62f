#!/usr/bin/env bash
# Build, test and check the Java starter kit (sample_bots/java) with the oldest Maven its
# README claims, 3.6.3, on the JDK 17 it claims (the JDK first on PATH, or JAVA_HOME), then
# run its tests again on a newer JDK where one is installed (JAVA_NEWER, by default the
# first /usr/lib/jvm/*-25*, else *-21*). Maven 3.6.3 itself comes from Maven Central, the
# registry the kit's build already needs. See tools/kit-steps.sh.
#
#   tools/kit-minimum-java.sh                         (from anywhere in the checkout)
#   MAVEN_VERSION=3.9.9 JAVA_NEWER=/opt/jdk-21 tools/kit-minimum-java.sh
source "$(dirname "$0")/kit-steps.sh"
MAVEN_VERSION=${MAVEN_VERSION:-3.6.3}
JAVA_NEWER=${JAVA_NEWER-$( (ls -d /usr/lib/jvm/*-25* || ls -d /usr/lib/jvm/*-21*) 2>/dev/null | head -n 1 || true)}
central=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven

install_maven() {
    curl -sSfL "$central/$MAVEN_VERSION/apache-maven-$MAVEN_VERSION-bin.tar.gz" |
        tar -xz -C "$work"
}

# tests_pass_none_skipped: surefire's summary, with 5 or more run and none skipped.
tests_pass_none_skipped() {
    mvn -B test && grep -Eq '^\[INFO\] Tests run: ([5-9]|[1-9][0-9]+), Failures: 0, Errors: 0, Skipped: 0$' "$log"
}

step "install Maven $MAVEN_VERSION from Maven Central" install_maven
export PATH=$work/apache-maven-$MAVEN_VERSION/bin:$PATH
step "$(mvn -version | head -n 1) first on PATH" test "$(command -v mvn)" = "$work/apache-maven-$MAVEN_VERSION/bin/mvn"
# The JDK first on PATH is 17, the kit's maven.compiler.release.
jdk_17() { java -version && grep -q '^[a-z]* version "17\.' "$log"; }
step "JDK 17 first on PATH" jdk_17
echo "ok    $(head -n 1 "$log")"
step "copy of the kit (without target/)" copy_kit java target
cd "$kit"
step "mvn -B test (>= 5 passing, none skipped)" tests_pass_none_skipped
check_bot
if [ -n "$JAVA_NEWER" ]; then
    newer() { JAVA_HOME=$JAVA_NEWER PATH=$JAVA_NEWER/bin:$PATH "$@"; }
    step "mvn -B test on $("$JAVA_NEWER/bin/java" -version 2>&1 | head -n 1)" \
        newer tests_pass_none_skipped
else
    echo "--    no newer JDK in /usr/lib/jvm: JAVA_NEWER=DIR names one"
fi
