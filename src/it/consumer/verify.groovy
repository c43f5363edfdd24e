def log = new File(basedir, 'build.log').text
assert log.contains('consumer: provider=SM3FFM module=io.github.sm3ffm native-access=true')
assert log.contains('consumer: SM3(abc)=66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0')
assert !log.contains('WARNING'): 'no restricted-method or other warnings'
