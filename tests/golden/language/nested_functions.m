function nested_functions()
  k = 2;
  r = inner(5);
  fprintf('%d %d\n', r, k);
  h = @inner;
  h(1);
  fprintf('%d\n', k);
  c = make_counter();
  c(); c();
  fprintf('%d\n', c());
  function y = inner(z)
    y = z * k;
    k = k + 1;
  end
end
function f = make_counter()
  n = 0;
  f = @incr;
  function v = incr()
    n = n + 1;
    v = n;
  end
end
