// A real third-party MCP client for sgmcp: the official TypeScript SDK.
// Usage: node client.mjs stdio SGMCP_BINARY ARGS... | node client.mjs http URL TOKEN
// STRATAGATE_TS_SDK names the folder whose node_modules holds
// @modelcontextprotocol/sdk. Prints one JSON object: the tools listed and a
// search → assess → record_use exchange.
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const sdkRoot = process.env.STRATAGATE_TS_SDK;
if (!sdkRoot) {
  console.error('client.mjs: set STRATAGATE_TS_SDK to the folder holding node_modules/@modelcontextprotocol/sdk');
  process.exit(2);
}
// ES modules ignore NODE_PATH: import the SDK's files by path.
const sdk = (p) => import(pathToFileURL(path.join(sdkRoot, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href);
const { Client } = await sdk('client/index.js');

const [mode, ...rest] = process.argv.slice(2);
let transport;
if (mode === 'stdio') {
  const { StdioClientTransport } = await sdk('client/stdio.js');
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });
} else if (mode === 'http') {
  const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
  transport = new StreamableHTTPClientTransport(new URL(rest[0]), {
    requestInit: { headers: { Authorization: `Bearer ${rest[1]}` } },
  });
} else {
  console.error('usage: node client.mjs stdio BINARY ARGS... | http URL TOKEN');
  process.exit(2);
}

const client = new Client({ name: 'sgmcp-ts-test', version: '1.0.0' });
await client.connect(transport);

const call = async (name, args) => {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) {
    throw new Error(`${name}: ${res.content.map((c) => c.text).join(' ')}`);
  }
  return { request: { name, arguments: args }, result: res.structuredContent };
};

const out = { transport: mode };
const listed = await client.listTools();
out.tools = listed.tools.map((t) => ({ name: t.name, description: t.description }));
const search = await call('memory_search_events', { q: 'Shadow dog', limit: 5 });
const batch = search.result.batch_id;
const ref = search.result.items[0].ref;
const assess = await call('memory_assess', {
  batch_id: batch,
  verdict: 'sufficient',
  evidence_refs: [ref],
  fit: 'the event names the dog',
  missing: '',
  next_strategy: 'answer',
});
const use = await call('memory_record_use', { assessment_id: assess.result.assessment_id });
out.exchange = [search, assess, use];
console.log(JSON.stringify(out, null, 2));
await client.close();
