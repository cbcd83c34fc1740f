import { generate } from 'selfsigned'

export interface SelfSignedPems {
  key: string
  cert: string
}

/** A self-signed EC certificate for `commonName`, valid from yesterday for `days`. */
export async function selfSignedCertificate(commonName: string, days = 400): Promise<SelfSignedPems> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    notBeforeDate: new Date(Date.now() - 86_400_000),
    notAfterDate: new Date(Math.floor(Date.now() / 1000 + days * 86_400) * 1000),
    algorithm: 'sha256',
  })
  return { key: pems.private, cert: pems.cert }
}
