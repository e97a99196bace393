import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeTempDir } from './temp-dir'

/** A certificate authority made for one test, and a server certificate it signed. */
export interface TestCertificates {
  /** The CA's certificate (PEM): what the client under test trusts. */
  ca: string
  /** The server's certificate (PEM), for `hostName` only. */
  cert: string
  /** The server's private key (PEM). */
  key: string
}

/**
 * A fresh CA and a server certificate for `hostName`, made with the openssl command line
 * (Node's crypto makes keys, not X.509 certificates). Nothing outside the test trusts it.
 */
export function makeTestCertificates(hostName: string): TestCertificates {
  const temp = makeTempDir('heliograph-tls-')
  // Run in the temporary folder, so that every argument is a word without spaces.
  const openssl = (command: string): void => {
    try {
      execFileSync('openssl', command.split(' '), { cwd: temp.dir, stdio: 'pipe' })
    } catch (error) {
      throw new Error(
        `openssl ${command.split(' ')[0]} failed while making the test certificates (is the openssl command installed?)`,
        { cause: error },
      )
    }
  }
  const file = (name: string): string => join(temp.dir, name)
  const newKey = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes'
  try {
    openssl(
      `req -x509 ${newKey} -keyout ca.key -out ca.pem -days 2 -subj /CN=Heliograph-test-CA` +
        ' -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign',
    )
    openssl(`req ${newKey} -keyout server.key -out server.csr -subj /CN=${hostName}`)
    writeFileSync(
      file('server.ext'),
      `subjectAltName=DNS:${hostName}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
    )
    openssl(
      'x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem' +
        ' -days 2 -extfile server.ext',
    )
    return {
      ca: readFileSync(file('ca.pem'), 'utf8'),
      cert: readFileSync(file('server.pem'), 'utf8'),
      key: readFileSync(file('server.key'), 'utf8'),
    }
  } finally {
    temp.remove()
  }
}
