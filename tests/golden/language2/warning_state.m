% w = warning('off', ...) returns the previous state; warning(w) restores it.
w = warning('off', 'all');
disp(class(w))
disp(w(1).identifier)
disp(w(1).state)
warning('this one is hidden')
warning(w);
warning('visible again')
w2 = warning('off', 'my:id');
disp(w2.identifier)
disp(w2.state)
w3 = warning('query', 'my:id');
disp(w3.state)
warning(w2)
w4 = warning('query', 'my:id');
disp(w4.state)
