% Display of text, cells, structs and function handles.
s = 'hello'
cm = ['abc'; 'def']
e = ''
c = {1, 'abc'; 22, 'x'}
nested = {ones(2), {1, 2}, [1 2 3]}
st.alpha = 1;
st.b = 'hi';
st.matrix = magic(3);
st.list = {1, 2};
st
sa = struct('a', {1, 2})
f = @(x) x.^2
empty_cell = {}
