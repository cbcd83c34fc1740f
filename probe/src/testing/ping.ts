import { serviceAvailable } from '@guard/shared/testing'

/**
 * The system's ping, which ICMP checks run. Tests that need it skip loudly without it, or fail
 * under GUARD_REQUIRE_SERVICES=1 (CI installs iputils-ping); a ping that is there but may not
 * send echo requests fails them, since the probe would fail the same way.
 */
export const pingBinary = () => serviceAvailable('ping', ['/usr/bin/ping', '/bin/ping'])
