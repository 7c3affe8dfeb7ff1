// Debian's Chromium driven by playwright-core (no browser download): the flags the project uses
// for headless runs, a fresh profile per launch, and the page's server on a free port.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../server.mjs';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Starts the server and a browser; returns { url, context, close() }. */
export async function openBrowser({ isolate = true } = {}) {
	const { server, url } = await startServer({ port: 0, isolate });
	const profile = mkdtempSync(join(tmpdir(), 'puddle-chromium-'));
	let context;
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 800, height: 560 },
		});
	} catch (e) {
		server.close();
		rmSync(profile, { recursive: true, force: true });
		throw e;
	}
	return {
		url,
		context,
		async close() {
			await context.close();
			server.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

/** A page that records console errors and uncaught exceptions into `errors`. */
export async function newPage(browser, path) {
	const page = await browser.context.newPage();
	const errors = [];
	page.on('console', (m) => {
		if (m.type() === 'error') errors.push(m.text());
	});
	page.on('pageerror', (e) => errors.push(e.message));
	await page.goto(browser.url + path);
	return { page, errors };
}

/**
 * The demo page at `/demo/QUERY`, once it says it is ready; fails the test if it shows an error.
 * Its fallback to a cheaper look when drawing is slow (SwiftShader always is) stays off unless
 * QUERY names `fallback`: a test measures the look it asked for.
 */
export async function openDemoPage(browser, query = '') {
	const fallback = query.includes('fallback=') ? '' : `${query.includes('?') ? '&' : '?'}fallback=0`;
	const { page, errors } = await newPage(browser, `/demo/${query}${fallback}`);
	await page.waitForFunction(() => document.body.dataset.ready === 'true' || !document.getElementById('error').hidden,
		null, { timeout: 60000 });
	const failure = await page.evaluate(() => (document.getElementById('error').hidden ? '' : document.getElementById('error').textContent));
	assert.equal(failure, '', 'the page shows no error');
	return { page, errors };
}
