/**
 * Each request is defined once (shared/contract/api-requests.ts): the type the Api declares is its schema's
 * static type, and the caps are the readers' own constants. The type checks fail `npm run typecheck`
 * when a type and its schema drift; the value checks fail here when a cap is written by hand.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ApiMethod,
  type ApiRequest,
  type ApiRequestsOffSchema,
  type InstallRequest,
  type SavedMcpServer,
  API_METHODS,
} from './api';
import { API_REQUEST_SCHEMAS, type ApiRequestOf } from './api-requests';
import { WebhookSecretChoiceSchema, type WebhookSecretChoice } from '../triggers/webhook-secret-schema';
import { type ConsentAnswers } from '../decisions/consent-answers-schema';
import type { ConsentAnswers as DecisionAnswers } from '../decisions/decisions';
import {
  MAX_ACCESS_PER_AGENT,
  MAX_AGENTS,
  MAX_MANIFEST_BYTES,
  MAX_TRIGGERS,
  MAX_WEBHOOK_SECRET_TEXT,
} from '../base/limits';
import { MAX_MCP_SERVER_NAME } from '../manifests/mcp-server-name';
import { type WebhookSecretChoice as SecretChoice } from '../triggers/webhook-secret';

interface Json {
  [key: string]: unknown;
  maxProperties?: number;
  maxLength?: number;
}
const at = (schema: unknown, ...path: string[]): Json =>
  path.reduce((node, key) => (node as Json)[key] as Json, schema as Json) as Json;

describe('Api requests: one schema gives the type and the check', () => {
  it('types every request as its schema does (a drift fails the typecheck)', () => {
    expectTypeOf<ApiRequestsOffSchema>().toEqualTypeOf<never>();
    expectTypeOf<ApiRequest<'install'>>().toEqualTypeOf<ApiRequestOf<'install'>>();
    expectTypeOf<ApiRequest<'saveMcpServer'>>().toEqualTypeOf<ApiRequestOf<'saveMcpServer'>>();
    expectTypeOf<ApiRequest<'activity'>>().toEqualTypeOf<ApiRequestOf<'activity'>>();
    expectTypeOf<ApiRequest<'setWebhookPort'>>().toEqualTypeOf<{ port: number | null }>();
    expectTypeOf<InstallRequest['decisions']>().toEqualTypeOf<DecisionAnswers>();
    expectTypeOf<ConsentAnswers['agents'][string]['access'][string]>().toEqualTypeOf<boolean | 'ask' | 'allow'>();
    expectTypeOf<SecretChoice>().toEqualTypeOf<WebhookSecretChoice>();
    expectTypeOf<SavedMcpServer['transport']>().toEqualTypeOf<'stdio' | 'streamable-http' | 'sse'>();
    expect(Object.keys(API_REQUEST_SCHEMAS).sort()).toEqual([...API_METHODS].sort());
    const methods: ApiMethod[] = [...API_METHODS];
    expect(methods).toHaveLength(Object.keys(API_REQUEST_SCHEMAS).length);
  });

  it("takes the install request's caps from the manifest's limits, so whatever inspect accepts installs", () => {
    const decisions = at(API_REQUEST_SCHEMAS.install, 'properties', 'decisions', 'properties');
    expect(at(decisions, 'agents').maxProperties).toBe(MAX_AGENTS);
    expect(at(decisions.agents, 'additionalProperties', 'properties', 'access').maxProperties).toBe(
      MAX_ACCESS_PER_AGENT,
    );
    expect(at(decisions, 'triggers').maxProperties).toBe(MAX_TRIGGERS);
    for (const map of [decisions.agents, decisions.triggers])
      expect(at(map, 'propertyNames').maxLength).toBe(MAX_MANIFEST_BYTES);
  });

  it("takes the webhook secret's and the MCP server name's caps from their readers", () => {
    const given = (WebhookSecretChoiceSchema as unknown as { oneOf: Json[] }).oneOf[1];
    expect(at(given, 'properties', 'secret').maxLength).toBe(MAX_WEBHOOK_SECRET_TEXT);
    expect(at(API_REQUEST_SCHEMAS.saveMcpServer, 'properties', 'name').maxLength).toBe(MAX_MCP_SERVER_NAME);
    for (const method of ['armTrigger', 'rotateWebhookSecret'] as const)
      expect(at(API_REQUEST_SCHEMAS[method], 'properties', 'webhookSecret')).toEqual(WebhookSecretChoiceSchema);
  });

  it('closes every request object and bounds every string, list and map', () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Json;
      const types = ([] as unknown[]).concat(schema.type ?? []);
      if (types.includes('object') && schema.additionalProperties !== false && schema.maxProperties === undefined)
        unbounded.push(`${where} (object)`);
      if (types.includes('string') && schema.maxLength === undefined && schema.pattern === undefined)
        unbounded.push(`${where} (string)`);
      if (types.includes('array') && schema.maxItems === undefined) unbounded.push(`${where} (array)`);
      for (const [key, value] of Object.entries(schema))
        if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${where}.${key}[${i}]`));
        else walk(value, `${where}.${key}`);
    };
    for (const [method, schema] of Object.entries(API_REQUEST_SCHEMAS)) walk(schema, method);
    expect(unbounded).toEqual([]);
  });
});
