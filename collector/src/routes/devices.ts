import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { createDevice } from '../services/devices/create.ts'
import { deleteDevice } from '../services/devices/delete.ts'
import { getDevice } from '../services/devices/get.ts'
import { readDeviceApplications, readDeviceConnections, readDeviceProcesses } from '../services/devices/inventory.ts'
import { listDevices } from '../services/devices/list.ts'
import { queryDeviceMetrics } from '../services/devices/metrics.ts'
import { regenerateDeviceToken } from '../services/devices/regenerate-token.ts'
import {
  createDeviceInput,
  deviceApplication,
  deviceConnection,
  deviceDetail,
  deviceMetric,
  deviceProcess,
  deviceStats,
  deviceView,
  enrolledDevice,
  metricsQuery,
  updateDeviceInput,
} from '../services/devices/schemas.ts'
import { deviceStats as readDeviceStats } from '../services/devices/stats.ts'
import { updateDevice } from '../services/devices/update.ts'
import { groupQuery } from '../services/groups/filter.ts'
import { tagQuery } from '../services/tags/schemas.ts'
import { envelope, errorResponses, ok } from './common.ts'

const read = { access: { permission: 'devices:read' as const } }
const write = { access: { permission: 'devices:write' as const } }
const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })
const deviceParams = z.object({ deviceId: z.string().min(1).max(64) })

export function deviceRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/devices',
    {
      config: read,
      schema: {
        querystring: organizationQuery.extend({ tag: tagQuery, ...groupQuery }),
        response: { 200: envelope(z.array(deviceView)), ...errorResponses },
      },
    },
    async (request) =>
      ok(await listDevices(ctx, callerOf(request), request.query.organizationId, request.query.tag, request.query)),
  )

  app.post(
    '/api/devices',
    {
      config: write,
      schema: {
        description:
          'Enrols a device. The agent `token` is in this answer only; install it on the device (`guard agent enroll` does all of it).',
        querystring: organizationQuery,
        body: createDeviceInput,
        response: { 201: envelope(enrolledDevice), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(ok(await createDevice(ctx, callerOf(request), request.body, request.query.organizationId))),
  )

  app.get(
    '/api/devices/stats',
    {
      config: read,
      schema: { querystring: organizationQuery, response: { 200: envelope(deviceStats), ...errorResponses } },
    },
    async (request) => ok(await readDeviceStats(ctx, callerOf(request), request.query.organizationId)),
  )

  app.get(
    '/api/devices/:deviceId',
    {
      config: read,
      schema: {
        description: 'Device detail; totalMemory and totalDisk are in bytes.',
        params: deviceParams,
        response: { 200: envelope(deviceDetail), ...errorResponses },
      },
    },
    async (request) => ok(await getDevice(ctx, callerOf(request), request.params.deviceId)),
  )

  app.put(
    '/api/devices/:deviceId',
    {
      config: write,
      schema: {
        params: deviceParams,
        body: updateDeviceInput,
        response: { 200: envelope(deviceDetail), ...errorResponses },
      },
    },
    async (request) => ok(await updateDevice(ctx, callerOf(request), request.params.deviceId, request.body)),
  )

  app.delete(
    '/api/devices/:deviceId',
    {
      config: write,
      schema: {
        params: deviceParams,
        response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errorResponses },
      },
    },
    async (request) => {
      await deleteDevice(ctx, callerOf(request), request.params.deviceId)
      return ok({ id: request.params.deviceId, deleted: true as const })
    },
  )

  app.post(
    '/api/devices/:deviceId/regenerate-token',
    {
      config: write,
      schema: {
        description: 'A new agent token, shown once; the previous token stops working at once.',
        params: deviceParams,
        response: { 200: envelope(z.object({ token: z.string() })), ...errorResponses },
      },
    },
    async (request) => ok(await regenerateDeviceToken(ctx, callerOf(request), request.params.deviceId)),
  )

  app.get(
    '/api/devices/:deviceId/metrics',
    {
      config: read,
      schema: {
        description:
          'Newest metrics first. Units: `%`, `bytes`, `bytes/s`, `load`, `count`. Ranges above 24h are per-minute averages.',
        params: deviceParams,
        querystring: metricsQuery,
        response: { 200: envelope(z.array(deviceMetric)), ...errorResponses },
      },
    },
    async (request) => ok(await queryDeviceMetrics(ctx, callerOf(request), request.params.deviceId, request.query)),
  )

  app.get(
    '/api/devices/:deviceId/processes',
    {
      config: read,
      schema: { params: deviceParams, response: { 200: envelope(z.array(deviceProcess)), ...errorResponses } },
    },
    async (request) => ok(await readDeviceProcesses(ctx, callerOf(request), request.params.deviceId)),
  )

  app.get(
    '/api/devices/:deviceId/applications',
    {
      config: read,
      schema: { params: deviceParams, response: { 200: envelope(z.array(deviceApplication)), ...errorResponses } },
    },
    async (request) => ok(await readDeviceApplications(ctx, callerOf(request), request.params.deviceId)),
  )

  app.get(
    '/api/devices/:deviceId/network',
    {
      config: read,
      schema: {
        description: 'Network connections of the last inventory.',
        params: deviceParams,
        response: { 200: envelope(z.array(deviceConnection)), ...errorResponses },
      },
    },
    async (request) => ok(await readDeviceConnections(ctx, callerOf(request), request.params.deviceId)),
  )
}
