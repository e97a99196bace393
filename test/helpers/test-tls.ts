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
  const file = (name: string): string => join(temp.dir, name)
  const openssl = (...args: string[]): void => {
    try {
      execFileSync('openssl', args, { stdio: 'pipe' })
    } catch (error) {
      throw new Error(
        `openssl ${args[0]} failed while making the test certificates (is the openssl command installed?): ${String(error)}`,
      )
    }
  }
  try {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=Heliograph test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    )
    openssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
      '-subj',
      `/CN=${hostName}`,
    )
    writeFileSync(
      file('server.ext'),
      `subjectAltName=DNS:${hostName}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
    )
    openssl(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('server.pem'),
      '-days',
      '2',
      '-extfile',
      file('server.ext'),
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
