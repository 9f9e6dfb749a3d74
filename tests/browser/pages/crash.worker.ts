/** Test-only worker that throws while starting, as a worker with a broken import or top-level bug would. */
throw new Error('worker boom at start');
