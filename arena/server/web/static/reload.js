// A version still on its way (queued, building, checking): the page again in 2 s.
setTimeout(() => location.reload(), 2000);
