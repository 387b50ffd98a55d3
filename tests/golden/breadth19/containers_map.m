% containers.Map: construction forms, key types, keys/values/isKey/remove,
% Count/length, handle semantics and MATLAB's errors.
M = containers.Map({'a','bb','c'}, {1, [2 3], 'x'})
n = M.Count
disp(length(M))
disp(keys(M))
disp(values(M))
disp(values(M, {'c','a'}))
disp(isKey(M, 'a'))
disp(isKey(M, {'a','zz';'c','bb'}))
M('d') = 42;
disp(M.keys)
disp(M.values({'d'}))
disp(M.isKey('d'))
remove(M, 'a');
disp(M.Count)
% a copy is the same map (handle semantics)
N = M;
N('e') = 5;
disp(M.Count)
add_entry(M);
disp(M('added'))
disp(class(M))
disp([isobject(M) isa(M, 'handle') isa(M, 'containers.Map')])
% one key, numeric values, sorted char keys
one = containers.Map('only', 7);
disp(one('only'))
V = containers.Map({'x','y'}, [10 20]);
disp(V.ValueType)
disp(V('y'))
S = containers.Map({'b','a','C'}, {1, 2, 3});
disp(keys(S))
% numeric key types
K = containers.Map('KeyType', 'double', 'ValueType', 'any');
K(3) = 'three';
K(1) = 'one';
disp(K.KeyType)
disp(keys(K))
disp(values(K))
D = containers.Map([10 20 30], {'p','q','r'});
disp(D(20))
disp(isKey(D, {10, 40}))
I = containers.Map('KeyType', 'int32', 'ValueType', 'double');
I(5) = 2.5;
disp(I(5))
U = containers.Map('KeyType', 'uint64', 'ValueType', 'any');
U(7) = 'seven';
disp(U.KeyType)
disp(U(7))
F = containers.Map('KeyType', 'single', 'ValueType', 'any');
F(1.5) = 'a';
disp(F(1.5))
E = containers.Map();
disp(E.Count)
disp(isempty(E))
disp(E.KeyType)
disp(E.ValueType)
W = containers.Map({'k1','k2'}, {1, 'a'}, 'UniformValues', false);
disp(W.ValueType)
remove(W, {'k1','k2'});
disp(W.Count)
% errors
try
  M('zz');
catch err
  disp(err.identifier); disp(err.message)
end
try
  M(3);
catch err
  disp(err.identifier); disp(err.message)
end
try
  values(M, {'d','nope'});
catch err
  disp(err.identifier)
end
try
  remove(M, 'nope');
catch err
  disp(err.identifier)
end
T = containers.Map('KeyType', 'char', 'ValueType', 'double');
try
  T('a') = 'text';
catch err
  disp(err.identifier); disp(err.message)
end

function add_entry(m)
% a handle argument: the caller sees the new key
m('added') = 99;
end
