/**
 * Test page: the whole browser app (demo/main.ts), built with the other test pages so that app tests need no
 * build of their own. Tests drive it through the URL fragment and the page's controls; `expose` only marks it
 * ready (the command returns the current route).
 */
import '../../../demo/main';
import { expose } from './expose';

expose(() => location.hash);
