def log = new File(basedir, 'build.log').text
assert log.contains('consumer: provider=SM3FFM module=io.github.sm3ffm native-access=true')
assert log.contains('consumer: SM3(abc)=66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0')
// From Maven's first line on: Maven 3.8 on JDK 24+ warns about its own Guava's sun.misc.Unsafe before it.
def build = log.substring(log.indexOf('[INFO] Scanning for projects'))
assert !build.contains('WARNING'): 'no restricted-method or other warnings'

// What a user gets from the repository: three jars, the POM's metadata, the licence, one version.
def dir = new File(localRepositoryPath, "io/github/sm3ffm/sm3-ffm/${projectVersion}")
def base = "sm3-ffm-${projectVersion}"
['', '-sources', '-javadoc'].each { assert new File(dir, "${base}${it}.jar").isFile(): "${base}${it}.jar not installed" }

def jar = new java.util.jar.JarFile(new File(dir, "${base}.jar"))
try {
    def manifest = jar.manifest.mainAttributes
    assert manifest.getValue('Implementation-Title') == projectName
    assert manifest.getValue('Implementation-Version') == projectVersion
    ['module-info.class', 'META-INF/LICENSE', 'META-INF/NOTICE'].each { assert jar.getEntry(it) != null: "${it} not in the jar" }
} finally {
    jar.close()
}
assert log.contains("sm3sum (sm3-ffm) ${projectVersion}\n"): 'getVersionStr() is not the POM version'

def pom = new groovy.xml.XmlSlurper().parse(new File(dir, "${base}.pom"))
assert pom.url.text() == projectUrl
assert pom.licenses.license.name.text() == 'Apache-2.0'
assert pom.scm.connection.text() == 'scm:git:https://github.com/sm3ffm/sm3-ffm.git'
assert pom.developers.developer.name.text()
assert pom.issueManagement.url.text() == "${projectUrl}/issues"
