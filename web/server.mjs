// A static file server for the demo, with the two headers that make a page cross-origin
// isolated (COOP same-origin + COEP require-corp): without them browsers hide SharedArrayBuffer
// and the threaded engine cannot run. No framework: node's http module is enough.
//
//   node server.mjs [--port 8080] [--host 127.0.0.1]
//
// It serves web/ at / (the demo at /demo/, the engine at /dist/ and /src/, lil-gui from
// /node_modules/), the repository's shared scenes at /scenes/ and the liquid look's shaders at
// /shaders/.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(webRoot, '..');

const MIME = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.wasm': 'application/wasm',
	'.map': 'application/json; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.ico': 'image/x-icon',
	'.md': 'text/markdown; charset=utf-8',
	'.glsl': 'text/plain; charset=utf-8',
	'.h': 'text/plain; charset=utf-8',
};

// URL prefix -> directory; the first match wins.
const MOUNTS = [
	['/scenes/', join(repoRoot, 'scenes')],
	['/shaders/', join(repoRoot, 'shaders')],
	['/', webRoot],
];

function resolvePath(urlPath) {
	for (const [prefix, dir] of MOUNTS) {
		if (!urlPath.startsWith(prefix)) continue;
		const file = normalize(join(dir, decodeURIComponent(urlPath.slice(prefix.length))));
		// refuse ../ escapes out of the mounted directory
		if (file !== dir && !file.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return null;
		return file;
	}
	return null;
}

async function listScenes() {
	const { readdir } = await import('node:fs/promises');
	try {
		return (await readdir(join(repoRoot, 'scenes'))).filter((n) => n.endsWith('.json')).sort();
	} catch {
		return [];
	}
}

const ISOLATION_HEADERS = {
	'Cross-Origin-Opener-Policy': 'same-origin',
	'Cross-Origin-Embedder-Policy': 'require-corp',
	'Cross-Origin-Resource-Policy': 'same-origin',
};

async function handle(req, res, isolate) {
	const headers = { ...(isolate ? ISOLATION_HEADERS : {}), 'Cache-Control': 'no-cache' };
	const url = new URL(req.url, 'http://localhost');
	let path = url.pathname;
	if (path === '/') {
		res.writeHead(302, { ...headers, Location: '/demo/' });
		return res.end();
	}
	// The scene picker's list: the JSON files shipped in scenes/.
	if (path === '/scenes/index.json') {
		res.writeHead(200, { ...headers, 'Content-Type': MIME['.json'] });
		return res.end(JSON.stringify(await listScenes()));
	}
	if (path.endsWith('/')) path += 'index.html';
	const file = resolvePath(path);
	try {
		if (!file) throw new Error('outside');
		const info = await stat(file);
		if (!info.isFile()) throw new Error('not a file');
		const body = await readFile(file);
		res.writeHead(200, { ...headers, 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream' });
		res.end(req.method === 'HEAD' ? undefined : body);
	} catch {
		res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' });
		res.end(`not found: ${path}\n`);
	}
}

/**
 * Starts the server; resolves to { server, url }. Port 0 picks a free port (tests use that).
 * isolate: false leaves out the COOP/COEP headers, as an ordinary static host would (the tests
 * check that the page then falls back to one thread).
 */
export function startServer({ port = 8080, host = '127.0.0.1', isolate = true } = {}) {
	const server = createServer((req, res) => {
		handle(req, res, isolate).catch((e) => {
			res.writeHead(500);
			res.end(String(e));
		});
	});
	return new Promise((resolveStart, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			const { port: actual } = server.address();
			resolveStart({ server, url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${actual}` });
		});
	});
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const arg = (name, fallback) => {
		const i = process.argv.indexOf(`--${name}`);
		return i > 0 ? process.argv[i + 1] : fallback;
	};
	const { url } = await startServer({ port: Number(arg('port', process.env.PORT ?? 8080)), host: arg('host', '127.0.0.1') });
	const shown = url.replace('127.0.0.1', 'localhost');
	console.log(`puddle demo: ${shown}/  (cross-origin isolated, so threads run; ${shown}/demo/?threads=1 for one)  Ctrl+C stops`);
}
